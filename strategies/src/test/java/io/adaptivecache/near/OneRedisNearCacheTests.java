package io.adaptivecache.near;

import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fixture of the near-cache tests on one Redis server: the server (started before a test
 * class and stopped after it) and fresh {@link NearInstances} on it for each test, closed after
 * it before {@link #afterInstancesClosed()} restores whatever the test did to the server.
 */
abstract class OneRedisNearCacheTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    NearInstances instances;

    @BeforeEach
    void openInstances() {
        instances = new NearInstances(redis.uri());
    }

    @AfterEach
    void closeInstances() {
        instances.close();
        afterInstancesClosed();
    }

    /** Runs after each test once its instances are closed; for a class that changes the server's state. */
    void afterInstancesClosed() {
    }
}
