<?php
/**
 * Verifying and reading a webhook delivery of the reseller hosting API, in plain PHP.
 *
 * The service signs the raw request body: header X-Service-Signature is "sha256=" followed by the
 * lowercase hex HMAC-SHA256 of the body, keyed with the webhook's secret. Compute it over the bytes
 * you received (before any json_decode) and compare in constant time with hash_equals.
 */

declare(strict_types=1);

/** Whether $signature (the X-Service-Signature header) is the service's signature of $raw with $secret. */
function webhook_signature_is_valid(string $raw, string $signature, string $secret): bool
{
    if ($secret === '') {
        return false;
    }
    $expected = 'sha256=' . hash_hmac('sha256', $raw, $secret);
    return hash_equals($expected, $signature);
}

/**
 * The event of a verified body: an array with "event" (string) and "data" (array), plus
 * "sandbox" and "timestamp" for reseller-style events or "created_at" for general ones.
 * Null when the body is not such an envelope.
 */
function webhook_event(string $raw): ?array
{
    $event = json_decode($raw, true);
    if (!is_array($event) || !is_string($event['event'] ?? null) || !is_array($event['data'] ?? null)) {
        return null;
    }
    return $event;
}
