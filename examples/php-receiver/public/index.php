<?php
/**
 * A webhook receiver for the reseller hosting API: one PHP file behind any web server, here PHP's
 * built-in one (php -S 127.0.0.1:8080 public/index.php).
 *
 *   401 when the signature is missing or wrong (the body is not read any further),
 *   400 when a signed body is not an event,
 *   200 otherwise, events this receiver does not know included: the service adds event types over
 *       time, and an answer other than 2xx makes it deliver the event again.
 *
 * Settings come from the environment: WEBHOOK_SECRET (the secret you gave PUT /reseller/webhook,
 * or the one POST /webhooks returned) and RECEIVER_LOG (a file each handled event is appended to,
 * one JSON line per event; default: the server's stderr).
 */

declare(strict_types=1);

require __DIR__ . '/../src/webhook.php';

function answer(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body), "\n";
}

/** What your application does with an event; here: one JSON line in RECEIVER_LOG. */
function record_event(array $event, string $outcome): void
{
    $log = getenv('RECEIVER_LOG') ?: 'php://stderr';
    $line = json_encode(['outcome' => $outcome, 'event' => $event['event'], 'data' => $event['data']]);
    file_put_contents($log, $line . "\n", FILE_APPEND | LOCK_EX);
}

if (($_SERVER['REQUEST_METHOD'] ?? '') !== 'POST') {
    header('Allow: POST');
    answer(405, ['error' => 'POST a webhook delivery here']);
    return;
}

$raw = file_get_contents('php://input');
$signature = $_SERVER['HTTP_X_SERVICE_SIGNATURE'] ?? '';
if (!webhook_signature_is_valid($raw, $signature, getenv('WEBHOOK_SECRET') ?: '')) {
    answer(401, ['error' => 'invalid signature']);
    return;
}

$event = webhook_event($raw);
if ($event === null) {
    answer(400, ['error' => 'not an event']);
    return;
}

switch ($event['event']) {
    case 'hosting.created':
        // e.g. mark the order as provisioned: $event['data']['username'], $event['data']['domain']
        record_event($event, 'handled');
        break;
    case 'domain.registered':
    case 'wallet.debited':
    case 'ticket.created':
    case 'ticket.replied':
        record_event($event, 'handled');
        break;
    default:
        // An event type this receiver does not know yet: acknowledge it, or it comes back.
        record_event($event, 'ignored');
}

answer(200, ['received' => true]);
