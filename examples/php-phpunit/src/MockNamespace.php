<?php
/**
 * A namespace of a running reseller-mock: a whole mock of its own (state, clock, faults, journal,
 * webhook retries) below its own url. One per test, so tests in parallel processes never meet.
 *
 *     $mock = MockNamespace::create(getenv('RESELLER_MOCK_URL'), ['label' => 'QuotaTest']);
 *     $api = new Client($mock->url, $mock->key());
 *     $mock->advanceClock(60);
 *     $mock->delete();
 */

declare(strict_types=1);

namespace ResellerApi;

final class MockNamespace
{
    /** @param list<array{key: string, mode: string, scopes: list<string>, reseller_id: int, reseller: string}> $keys */
    public function __construct(
        public readonly string $rootUrl,
        public readonly string $id,
        public readonly string $url,
        public readonly array $keys,
    ) {
    }

    /**
     * POST /__mock/namespaces on the server at $rootUrl. $options: id, seed, random_seed,
     * ttl_seconds, label (all optional).
     *
     * @param array<string, mixed> $options
     */
    public static function create(string $rootUrl, array $options = []): self
    {
        $rootUrl = rtrim($rootUrl, '/');
        $data = Http::json('POST', "$rootUrl/__mock/namespaces", $options === [] ? null : $options)['data'];
        return new self($rootUrl, $data['id'], $data['url'], $data['keys']);
    }

    /** The first key of the seed with this mode and reseller (every scope, with the demo seed). */
    public function key(string $mode = 'live', int $resellerId = 1): string
    {
        foreach ($this->keys as $key) {
            if ($key['mode'] === $mode && $key['reseller_id'] === $resellerId) {
                return $key['key'];
            }
        }
        throw new \LogicException("no $mode key of reseller $resellerId in the namespace's seed");
    }

    /**
     * Any control endpoint of this namespace: $path below /__mock.
     *
     * @param array<string, mixed>|null $body
     * @return mixed the answer's data
     */
    public function control(string $method, string $path, ?array $body = null): mixed
    {
        return Http::json($method, $this->url . '/__mock' . $path, $body)['data'];
    }

    /** Moves this namespace's clock; the webhook retries that fall due run before it returns. */
    public function advanceClock(float $seconds): void
    {
        $this->control('POST', '/clock/advance', ['seconds' => $seconds]);
    }

    /** @param array<string, mixed> $spec e.g. ['respond' => ['status' => 503], 'times' => 1] */
    public function addFault(array $spec): void
    {
        $this->control('POST', '/faults', $spec);
    }

    /** @return list<array<string, mixed>> every webhook delivery, newest first */
    public function deliveries(): array
    {
        return $this->control('GET', '/deliveries');
    }

    /** Deletes the namespace; nothing happens when it is already gone. */
    public function delete(): void
    {
        try {
            Http::json('DELETE', "{$this->rootUrl}/__mock/namespaces/" . rawurlencode($this->id));
        } catch (NotFoundException) {
        }
    }
}
