package io.adaptivecache.benchmarks.targets;

import java.time.Duration;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/** The one commons-pool2 configuration every pooled target uses, so that pools differ only in size. */
final class BenchPools {

    private BenchPools() {
    }

    /**
     * A pool of a fixed size: as many idle as total (no churn), blocking borrowers up to the timeout.
     * @param size the pool size
     * @param maxWait the longest a borrower waits
     * @param <T> what the pool holds
     * @return the configuration
     */
    static <T> GenericObjectPoolConfig<T> fixedSize(int size, Duration maxWait) {
        GenericObjectPoolConfig<T> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(size);
        config.setMaxIdle(size);
        config.setMinIdle(0);
        config.setMaxWait(maxWait);
        config.setBlockWhenExhausted(true);
        config.setJmxEnabled(false);
        return config;
    }
}
