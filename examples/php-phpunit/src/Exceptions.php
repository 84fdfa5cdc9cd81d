<?php
/**
 * The API's error answers as exceptions, one class per error code a caller handles differently.
 * Every one is an ApiException: getStatus() (HTTP status), getErrorCode() ("quota_exceeded", ...),
 * getMessage() (the envelope's message, one line).
 */

declare(strict_types=1);

namespace ResellerApi;

/** An error answer of the API or of the mock's control endpoints, or no answer at all (status 0). */
class ApiException extends \RuntimeException
{
    /** @param array<string, mixed> $body the decoded error envelope */
    public function __construct(
        private int $status,
        private string $errorCode,
        string $message,
        private array $body = [],
    ) {
        parent::__construct("$status $errorCode: $message");
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** @return array<string, mixed> */
    public function getBody(): array
    {
        return $this->body;
    }

    /** The exception class for an error answer: the most specific one its code and status have. */
    public static function fromAnswer(int $status, string $code, string $message, array $body = []): self
    {
        $class = match (true) {
            $code === 'validation_error' => ValidationException::class,
            $code === 'quota_exceeded' => QuotaExceededException::class,
            $code === 'rate_limited' || $status === 429 => RateLimitedException::class,
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status >= 500 => ServerException::class,
            default => self::class,
        };
        return new $class($status, $code, $message, $body);
    }
}

/** 422 validation_error: getFields() maps each refused field to its reasons. */
class ValidationException extends ApiException
{
    /** @return array<string, list<string>> */
    public function getFields(): array
    {
        return $this->getBody()['error']['fields'] ?? [];
    }
}

/** 422 quota_exceeded: the reseller's WHM plan has no free account left. */
class QuotaExceededException extends ApiException
{
}

/** 429: too many requests; getRetryAfter() is the Retry-After header in seconds, when sent. */
class RateLimitedException extends ApiException
{
    public ?int $retryAfter = null;

    public function getRetryAfter(): ?int
    {
        return $this->retryAfter;
    }
}

/** 401: a missing or unknown key. */
class AuthenticationException extends ApiException
{
}

/** 403: the key lacks a scope, or a sandbox key did what only a live one may. */
class PermissionException extends ApiException
{
}

/** 404: not_found, or namespace_not_found (a namespace deleted or expired). */
class NotFoundException extends ApiException
{
}

/** 409: namespace_exists, or another conflict. */
class ConflictException extends ApiException
{
}

/** 5xx: the service (or a fault added to the mock) failed; status 0: no answer at all. */
class ServerException extends ApiException
{
}
