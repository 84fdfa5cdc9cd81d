<?php

declare(strict_types=1);

require __DIR__ . '/../src/Exceptions.php';
require __DIR__ . '/../src/Http.php';
require __DIR__ . '/../src/Client.php';
require __DIR__ . '/../src/MockNamespace.php';
require __DIR__ . '/MockTestCase.php';

if (!getenv('RESELLER_MOCK_URL')) {
    fwrite(STDERR, "RESELLER_MOCK_URL is not set: run ./run-tests.sh, which starts the mock, or start one and set it\n");
    exit(2);
}
