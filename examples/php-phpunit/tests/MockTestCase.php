<?php

declare(strict_types=1);

namespace ResellerApi\Tests;

use PHPUnit\Framework\TestCase;
use ResellerApi\Client;
use ResellerApi\Http;
use ResellerApi\MockNamespace;

/**
 * Each test gets its own namespace of the server at RESELLER_MOCK_URL ($this->mock) and a client
 * of the API at its url ($this->api); the namespace is deleted after the test, passed or failed.
 */
abstract class MockTestCase extends TestCase
{
    protected MockNamespace $mock;
    protected Client $api;

    protected function setUp(): void
    {
        $root = (string) getenv('RESELLER_MOCK_URL');
        if (getenv('MOCK_ISOLATION') === 'reset') {
            // The old pattern, kept to show why it is gone: every test on the server's root, reset
            // first. Run as 4 processes it fails: they reset and change one shared state.
            Http::json('POST', rtrim($root, '/') . '/__mock/reset');
            $this->mock = new MockNamespace($root, '', rtrim($root, '/'), [
                ['key' => 'svc_live_acme_full', 'mode' => 'live', 'scopes' => [], 'reseller_id' => 1, 'reseller' => 'Acme Hosting'],
            ]);
        } else {
            $this->mock = MockNamespace::create($root, ['label' => substr(static::class . '::' . $this->getName(), -200)]);
        }
        $this->api = new Client($this->mock->url, $this->mock->key());
    }

    protected function tearDown(): void
    {
        if ($this->mock->id !== '') {
            $this->mock->delete();
        }
    }

    /** @return array<string, array{int}> four rounds of each test, so parallel processes overlap */
    public static function rounds(): array
    {
        return ['round 1' => [1], 'round 2' => [2], 'round 3' => [3], 'round 4' => [4]];
    }
}
