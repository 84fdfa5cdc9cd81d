<?php

declare(strict_types=1);

namespace ResellerApi\Tests;

final class TicketPagingTest extends MockTestCase
{
    /** @dataProvider rounds */
    public function testPagesThroughEveryTicket(int $round): void
    {
        $before = $this->api->ticketPage()['meta']['total'];
        $opened = [];
        for ($n = 0; $n < 3; $n++) {
            $opened[] = $this->api->openTicket("Paging $n", 'Where is my invoice?')['ticket_id'];
        }
        $every = iterator_to_array($this->api->tickets(), false);
        $this->assertCount($before + 3, $every);
        $uuids = array_column($every, 'uuid');
        $this->assertSame($uuids, array_values(array_unique($uuids)));
        // Newest first: the three just opened lead the first page.
        $this->assertSame(array_reverse($opened), array_slice($uuids, 0, 3));
    }
}
