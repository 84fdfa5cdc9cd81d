<?php

declare(strict_types=1);

namespace ResellerApi\Tests;

final class WebhookRetryTest extends MockTestCase
{
    /** @dataProvider rounds */
    public function testAFailedDeliveryIsRetriedAMinuteLaterOnTheMocksClock(int $round): void
    {
        // Nothing listens on 127.0.0.1:1: every attempt fails.
        $this->api->setWebhook('http://127.0.0.1:1/hooks', 'whsec_phpunit_example_0123');
        $this->mock->control('POST', '/events', ['reseller_id' => 1, 'event' => 'vps.activated']);
        $this->mock->advanceClock(0); // returns once the first attempt has been made

        [$delivery] = $this->mock->deliveries();
        $this->assertSame(['failed', 1], [$delivery['status'], $delivery['attempts']]);

        $this->mock->advanceClock(59);
        $this->assertSame(1, $this->mock->deliveries()[0]['attempts'], 'no retry before the minute');
        $this->mock->advanceClock(1);
        $this->assertSame(2, $this->mock->deliveries()[0]['attempts'], 'the retry one minute after');
    }
}
