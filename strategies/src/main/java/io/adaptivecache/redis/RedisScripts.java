package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.adaptivecache.CasResult;

/** The Lua scripts and argument encodings both Redis drivers send, so that they behave the same. */
final class RedisScripts {

    /** The TTL argument meaning "no expiry". */
    static final byte[] NO_EXPIRY = {'0'};

    /**
     * Replaces a value only if the SHA-1 of the stored value is still the one {@code gets} read:
     * KEYS[1] the key, ARGV[1] the digest, ARGV[2] the new value, ARGV[3] the TTL in ms ('0': none).
     * Answers 0 (absent), 1 (changed since) or 2 (stored).
     */
    static final RedisScript COMPARE_AND_SET = new RedisScript("""
            local current = redis.call('GET', KEYS[1])
            if not current then return 0 end
            if redis.sha1hex(current) ~= ARGV[1] then return 1 end
            if ARGV[3] == '0' then redis.call('SET', KEYS[1], ARGV[2])
            else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
            return 2
            """);

    /** Sets a key's TTL (ARGV[1] in ms, '0' to persist) if it exists; answers 1 if it did. */
    static final RedisScript TOUCH = new RedisScript("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
            if ARGV[1] == '0' then redis.call('PERSIST', KEYS[1])
            else redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
            return 1
            """);

    private static final CasResult[] CAS_RESULTS = {CasResult.NOT_FOUND, CasResult.EXISTS, CasResult.STORED};

    private RedisScripts() {
    }

    static CasResult casResult(Long code) {
        return CAS_RESULTS[code.intValue()];
    }

    static byte[] ttlArgument(Duration ttl) {
        return ttl.isZero() ? NO_EXPIRY : Long.toString(millis(ttl)).getBytes(StandardCharsets.US_ASCII);
    }

    /** Rounded up, so that a sub-millisecond TTL still expires rather than being rejected as PX 0. */
    static long millis(Duration ttl) {
        long millis = ttl.toMillis();
        return ttl.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
