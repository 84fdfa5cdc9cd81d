<?php

declare(strict_types=1);

namespace ResellerApi\Tests;

use ResellerApi\ServerException;

final class FaultTest extends MockTestCase
{
    /** @dataProvider rounds */
    public function testAFaultAnswers503OnceThenTheApiAnswers(int $round): void
    {
        $route = '/api/v1/reseller/whm/usage';
        $this->mock->addFault(['match' => ['method' => 'GET', 'route' => $route], 'respond' => ['status' => 503], 'times' => 1]);
        try {
            $this->api->usage();
            $this->fail('the fault did not apply');
        } catch (ServerException $failed) {
            $this->assertSame([503, 'service_unavailable'], [$failed->getStatus(), $failed->getErrorCode()]);
        }
        $this->assertGreaterThan(0, $this->api->usage()['accounts_limit']);
        $journal = $this->mock->control('GET', '/requests?route=' . rawurlencode($route));
        $this->assertSame([503, 200], array_column($journal, 'status'));
    }
}
