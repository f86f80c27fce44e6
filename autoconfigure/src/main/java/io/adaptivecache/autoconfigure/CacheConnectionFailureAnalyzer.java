package io.adaptivecache.autoconfigure;

import io.adaptivecache.CacheConnectionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a cache server that could not be reached while the context started. */
class CacheConnectionFailureAnalyzer extends AbstractFailureAnalyzer<CacheConnectionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CacheConnectionException cause) {
        boolean memcached = cause.getMessage() != null && cause.getMessage().contains("memcached");
        String backend = memcached ? "memcached" : "redis";
        String address = memcached ? "adaptive-cache.memcached.servers" : "adaptive-cache.redis.url (or host and port)";
        return new FailureAnalysis("A cache template could not connect at startup: " + cause.getMessage(),
                "Start the " + backend + " server, point " + address + " at a running one, or set adaptive-cache." + backend
                        + ".enabled=false if the application does not use " + backend + ".",
                cause);
    }
}
