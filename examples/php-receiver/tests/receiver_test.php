<?php
/**
 * The receiver against the mock: starts the mock (the reseller-mock binary; MOCK_BIN names
 * it, default `reseller-mock` on PATH), serves public/index.php with PHP's built-in server, points
 * the reseller webhook at it, and checks what the receiver answers to real deliveries of the mock,
 * to a delivery signed with another secret, to an unsigned request, to an event type it does
 * not know (sent by the binary's `trigger --unknown`) and to every event at once (`trigger --all`);
 * and that the example deliveries of the OpenAPI document's `webhooks` verify with its code.
 *
 *   php tests/receiver_test.php
 *
 * Prints one "ok"/"not ok" line per check; exits 1 when one fails.
 */

declare(strict_types=1);

require __DIR__ . '/../src/webhook.php';

const KEY = 'svc_live_acme_full';
const SECRET = 'php-receiver-example-secret';
const DEADLINE_S = 20.0;
define('MOCK_BIN', getenv('MOCK_BIN') ?: 'reseller-mock');

$failures = 0;
$checks = 0;

function check(bool $passed, string $what, string $detail = ''): void
{
    global $failures, $checks;
    $checks++;
    echo ($passed ? 'ok' : 'not ok'), " $checks - $what", ($passed || $detail === '' ? '' : " ($detail)"), "\n";
    if (!$passed) {
        $failures++;
    }
}

/** Starts $command (no shell); returns [process, stdout, stderr]. */
function start(array $command, array $env): array
{
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    if (!is_resource($process)) {
        throw new RuntimeException('cannot start ' . implode(' ', $command));
    }
    stream_set_blocking($pipes[1], false);
    stream_set_blocking($pipes[2], false);
    return [$process, $pipes[1], $pipes[2]];
}

/** Reads $stream until a line matches $pattern; returns the match. */
function wait_for_line($process, $stream, string $pattern): array
{
    $buffer = '';
    $until = microtime(true) + DEADLINE_S;
    while (microtime(true) < $until) {
        $read = [$stream];
        $none = null;
        if (stream_select($read, $none, $none, 0, 200000) > 0) {
            $chunk = fread($stream, 8192);
            $buffer .= $chunk === false ? '' : $chunk;
            if (preg_match($pattern, $buffer, $match)) {
                return $match;
            }
        }
        if (!proc_get_status($process)['running']) {
            break;
        }
    }
    throw new RuntimeException("no line matching $pattern: $buffer");
}

/** Runs $command (no shell) to its end; returns [exit code, stdout and stderr]. */
function run(array $command): array
{
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    if (!is_resource($process)) {
        throw new RuntimeException('cannot start ' . implode(' ', $command));
    }
    $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    return [proc_close($process), trim($output)];
}

/** Sends SIGTERM and returns the exit code. */
function stop($process): int
{
    proc_terminate($process, 15);
    $until = microtime(true) + DEADLINE_S;
    while (($status = proc_get_status($process))['running'] && microtime(true) < $until) {
        usleep(50000);
    }
    return $status['running'] ? -1 : $status['exitcode'];
}

/** A request; returns [status, decoded JSON body or raw text]. */
function http(string $method, string $url, ?string $body = null, array $headers = []): array
{
    $context = stream_context_create(['http' => [
        'method' => $method,
        'header' => implode("\r\n", $headers),
        'content' => $body ?? '',
        'ignore_errors' => true,
        'timeout' => DEADLINE_S,
    ]]);
    $text = file_get_contents($url, false, $context);
    preg_match('{^HTTP/\S+ (\d{3})}', $http_response_header[0] ?? '', $status);
    $json = json_decode((string) $text, true);
    return [(int) ($status[1] ?? 0), $json ?? $text];
}

function api(string $base, string $method, string $path, ?array $body = null): array
{
    $headers = ['Authorization: Bearer ' . KEY, 'Content-Type: application/json'];
    return http($method, "$base/api/v1$path", $body === null ? null : json_encode($body), $headers);
}

/** Lines of the receiver's log, decoded. */
function logged(string $log): array
{
    $lines = is_file($log) ? file($log, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [];
    return array_map(fn ($line) => json_decode($line, true), $lines);
}

/** Waits until the log holds an entry for which $match is true (deliveries are asynchronous). */
function wait_for_logged(string $log, callable $match): ?array
{
    $until = microtime(true) + DEADLINE_S;
    do {
        foreach (logged($log) as $entry) {
            if ($match($entry)) {
                return $entry;
            }
        }
        usleep(50000);
    } while (microtime(true) < $until);
    return null;
}

/** PHP's built-in server on a free port: retried when another process takes the port first. */
function start_receiver(string $log): array
{
    for ($attempt = 0; $attempt < 5; $attempt++) {
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
        fclose($probe);
        [$process, $out, $err] = start(
            [PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/../public/index.php'],
            ['WEBHOOK_SECRET' => SECRET, 'RECEIVER_LOG' => $log],
        );
        try {
            wait_for_line($process, $err, '/Development Server \(http:\/\/127\.0\.0\.1:\d+\) started/');
            return [$process, "http://127.0.0.1:$port/"];
        } catch (RuntimeException $e) {
            proc_terminate($process, 9);
        }
    }
    throw new RuntimeException('PHP built-in server did not start');
}

$log = tempnam(sys_get_temp_dir(), 'php-receiver-log-');
[$mock, $mockOut] = start([MOCK_BIN, '--port', '0', '--quiet'], []);
$base = wait_for_line($mock, $mockOut, '{listening on (http://\S+)}')[1];
[$receiver, $receiverUrl] = start_receiver($log);
echo "# mock $base, receiver $receiverUrl\n";

try {
    [$status, $body] = api($base, 'PUT', '/reseller/webhook', ['url' => $receiverUrl, 'secret' => SECRET]);
    check($status === 200 && ($body['data']['has_secret'] ?? false) === true, 'the reseller webhook points at the receiver', "$status");

    [$status, $body] = api($base, 'POST', '/reseller/webhook/test');
    check(($body['data']['status_code'] ?? null) === 200 && $body['data']['delivered'] === true, "the mock's test delivery is answered 200", json_encode($body));

    [$status, $body] = api($base, 'POST', '/reseller/clients/501/hosting', ['domain' => 'php-receiver.example', 'whm_package' => 'starter']);
    check($status === 201, 'provisioning an account answers 201', "$status");
    $entry = wait_for_logged($log, fn ($e) => $e['event'] === 'hosting.created' && ($e['data']['domain'] ?? '') === 'php-receiver.example');
    check($entry !== null && $entry['outcome'] === 'handled', 'its hosting.created delivery is verified and handled', json_encode(logged($log)));

    [$status, $body] = api($base, 'PUT', '/reseller/webhook', ['url' => $receiverUrl, 'secret' => 'not-the-receivers-secret']);
    $before = count(logged($log));
    [$status, $body] = api($base, 'POST', '/reseller/webhook/test');
    check(($body['data']['status_code'] ?? null) === 401 && $body['data']['delivered'] === false, 'a delivery signed with another secret gets 401', json_encode($body));
    check(count(logged($log)) === $before, 'and never reaches the application');

    [$status] = http('POST', $receiverUrl, '{"event":"hosting.created","sandbox":false,"timestamp":"2026-01-01T00:00:00.000000Z","data":{}}', ['Content-Type: application/json']);
    check($status === 401, 'an unsigned request gets 401', "$status");

    // An event type the service may add later (the SDK's term: an unknown event), sent by the
    // binary's own `trigger --unknown`, signed as the service signs: it exits 0 on a 2xx answer.
    [$code, $output] = run([MOCK_BIN, 'trigger', 'vps.migrated', '--unknown', '--style', 'reseller', '--data', '{"server_id":7}', '--forward-to', $receiverUrl, '--secret', SECRET]);
    check($code === 0, 'an unknown event type (reseller-mock trigger --unknown) is answered 2xx', "exit $code: $output");
    $entry = wait_for_logged($log, fn ($e) => $e['event'] === 'vps.migrated' && ($e['data']['server_id'] ?? null) === 7);
    check($entry !== null && $entry['outcome'] === 'ignored', 'and skipped by the application');

    // Every event the service sends, in both styles, and one unknown event of each style: the
    // binary's `trigger --all`, which exits 0 when every delivery got a 2xx.
    $before = count(logged($log));
    [$code, $output] = run([MOCK_BIN, 'trigger', '--all', '--forward-to', $receiverUrl, '--secret', SECRET]);
    $lines = explode("\n", $output);
    check($code === 0 && end($lines) === '20 delivered, 0 failed', 'every event of both styles and two unknown ones (reseller-mock trigger --all) are answered 2xx', "exit $code: " . end($lines));
    $added = array_slice(logged($log), $before);
    check(count($added) === 20 && count(array_filter($added, fn ($e) => $e['outcome'] === 'ignored')) >= 2, 'and each reaches the application', json_encode($added));

    $notEvent = '[1, 2, 3]';
    [$status] = http('POST', $receiverUrl, $notEvent, ['Content-Type: application/json', 'X-Service-Signature: sha256=' . hash_hmac('sha256', $notEvent, SECRET)]);
    check($status === 400, 'a signed body that is not an event gets 400', "$status");

    // The OpenAPI document describes every event (`webhooks`); each entry's example delivery is
    // signed with the documented secret over its compact JSON: this receiver's check accepts them all.
    $document = json_decode((string) file_get_contents(__DIR__ . '/../../../packages/sdk/openapi.json'));
    $entries = 0;
    $verified = 0;
    foreach ($document->webhooks as $entry) {
        $entries++;
        $example = $entry->post->requestBody->content->{'application/json'}->example;
        $raw = json_encode($example, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        $signature = '';
        foreach ($entry->post->parameters as $parameter) {
            if ($parameter->name === 'X-Service-Signature') {
                $signature = $parameter->example;
            }
        }
        $verified += webhook_signature_is_valid($raw, $signature, 'whsec_openapi_example') && webhook_event($raw) !== null ? 1 : 0;
    }
    check($entries === 18 && $verified === $entries, "the OpenAPI document's example deliveries verify and decode", "$verified of $entries");
} finally {
    stop($receiver);
    check(stop($mock) === 0, 'the mock exits 0 on SIGTERM');
    @unlink($log);
}

echo "1..$checks\n";
exit($failures === 0 ? 0 : 1);
