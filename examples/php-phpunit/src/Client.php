<?php
/**
 * A client of the reseller hosting API: what these tests use of it.
 *
 *     $api = new Client('http://127.0.0.1:4010', 'svc_live_acme_full');
 *     $account = $api->provisionHosting(501, 'shop.example', 'starter');
 *     foreach ($api->tickets() as $ticket) { ... }   // every page, 20 tickets each
 *
 * Error answers throw the ApiException subclass of their code (src/Exceptions.php).
 */

declare(strict_types=1);

namespace ResellerApi;

final class Client
{
    private string $baseUrl;

    /** $baseUrl: the service's address, or a mock namespace's url (the API is below /api/v1). */
    public function __construct(string $baseUrl, private string $apiKey)
    {
        $this->baseUrl = rtrim($baseUrl, '/');
    }

    /**
     * One request below /api/v1; returns the envelope of a 2xx answer (data, meta).
     *
     * @param array<string, mixed>|null $body
     * @param array<string, scalar> $query
     * @return array<string, mixed>
     */
    public function request(string $method, string $path, ?array $body = null, array $query = []): array
    {
        $url = $this->baseUrl . '/api/v1' . $path . ($query === [] ? '' : '?' . http_build_query($query));
        return Http::json($method, $url, $body, ['Authorization' => 'Bearer ' . $this->apiKey]);
    }

    /** @return array<string, mixed> the new account: username, cpanel_url, ... */
    public function provisionHosting(int $clientId, string $domain, string $whmPackage = 'starter'): array
    {
        $body = ['domain' => $domain, 'whm_package' => $whmPackage];
        return $this->request('POST', "/reseller/clients/$clientId/hosting", $body)['data'];
    }

    /** @return array<string, mixed> accounts_used, accounts_limit, ... */
    public function usage(): array
    {
        return $this->request('GET', '/reseller/whm/usage')['data'];
    }

    /** @return array<string, mixed> ticket_id, status, ... */
    public function openTicket(string $subject, string $message, string $department = 'technical'): array
    {
        $body = ['subject' => $subject, 'message' => $message, 'department' => $department];
        return $this->request('POST', '/support/tickets', $body)['data'];
    }

    /** @return array<string, mixed> one page: data and meta (total, per_page, current_page) */
    public function ticketPage(int $page = 1): array
    {
        return $this->request('GET', '/support/tickets', null, ['page' => $page]);
    }

    /** @return \Generator<array<string, mixed>> every ticket, newest first, page after page */
    public function tickets(): \Generator
    {
        for ($page = 1; ; $page++) {
            $answer = $this->ticketPage($page);
            yield from $answer['data'];
            $meta = $answer['meta'];
            if ($answer['data'] === [] || $meta['current_page'] * $meta['per_page'] >= $meta['total']) {
                return;
            }
        }
    }

    /** Points the reseller webhook at $url; deliveries are signed with $secret. */
    public function setWebhook(string $url, string $secret): void
    {
        $this->request('PUT', '/reseller/webhook', ['url' => $url, 'secret' => $secret]);
    }
}
