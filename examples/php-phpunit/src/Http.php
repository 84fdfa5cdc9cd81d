<?php
/** One JSON request over PHP's streams (no extension needed), decoded as the API's envelope. */

declare(strict_types=1);

namespace ResellerApi;

final class Http
{
    /**
     * Sends $method $url with $body as JSON; returns the decoded envelope of a 2xx answer, throws
     * the ApiException subclass of an error answer (ServerException with status 0: no answer).
     *
     * @param array<string, string> $headers
     * @return array<string, mixed>
     */
    public static function json(string $method, string $url, ?array $body = null, array $headers = [], float $timeout = 30.0): array
    {
        $lines = ['Accept: application/json'];
        foreach ($headers as $name => $value) {
            $lines[] = "$name: $value";
        }
        $options = ['method' => $method, 'ignore_errors' => true, 'timeout' => $timeout, 'protocol_version' => 1.1];
        if ($body !== null) {
            $lines[] = 'Content-Type: application/json';
            $options['content'] = json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
        }
        $lines[] = 'Connection: close';
        $options['header'] = implode("\r\n", $lines);
        $raw = @file_get_contents($url, false, stream_context_create(['http' => $options]));
        if ($raw === false || !isset($http_response_header[0])) {
            $why = error_get_last()['message'] ?? 'no answer';
            throw new ServerException(0, 'unreachable', "$method $url: $why");
        }
        preg_match('{^HTTP/\S+ (\d{3})}', $http_response_header[0], $status);
        $status = (int) $status[1];
        $decoded = $raw === '' ? [] : json_decode($raw, true);
        if ($status >= 200 && $status < 300) {
            return is_array($decoded) ? $decoded : [];
        }
        $error = is_array($decoded) ? ($decoded['error'] ?? null) : null;
        $exception = ApiException::fromAnswer(
            $status,
            is_array($error) ? (string) ($error['code'] ?? 'http_error') : 'http_error',
            is_array($error) ? (string) ($error['message'] ?? '') : substr($raw, 0, 200),
            is_array($decoded) ? $decoded : [],
        );
        if ($exception instanceof RateLimitedException) {
            foreach ($http_response_header as $line) {
                if (preg_match('{^Retry-After:\s*(\d+)}i', $line, $match)) {
                    $exception->retryAfter = (int) $match[1];
                }
            }
        }
        throw $exception;
    }
}
