package io.adaptivecache.benchmarks.load;

/** The cache server a workload runs against. */
public enum Backend {

    /** redis-server. */
    REDIS("Redis"),

    /** memcached. */
    MEMCACHED("memcached");

    private final String label;

    Backend(String label) {
        this.label = label;
    }

    /** @return the name shown in reports */
    public String label() {
        return this.label;
    }
}
