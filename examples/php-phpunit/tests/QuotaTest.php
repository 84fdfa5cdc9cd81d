<?php

declare(strict_types=1);

namespace ResellerApi\Tests;

use ResellerApi\QuotaExceededException;

final class QuotaTest extends MockTestCase
{
    /** @dataProvider rounds */
    public function testProvisionsUpToTheQuotaThenIsRefused(int $round): void
    {
        $usage = $this->api->usage();
        $free = $usage['accounts_limit'] - $usage['accounts_used'];
        $this->assertGreaterThan(0, $free);
        for ($n = 0; $n < $free; $n++) {
            $account = $this->api->provisionHosting(501, "quota-$n.example");
            $this->assertSame("quota$n", $account['username']);
        }
        try {
            $this->api->provisionHosting(501, 'one-too-many.example');
            $this->fail('the account beyond the quota was created');
        } catch (QuotaExceededException $refused) {
            $this->assertSame(422, $refused->getStatus());
        }
        $this->assertSame($usage['accounts_limit'], $this->api->usage()['accounts_used']);
    }
}
