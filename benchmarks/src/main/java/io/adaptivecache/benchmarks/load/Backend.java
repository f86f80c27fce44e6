package io.adaptivecache.benchmarks.load;

/** The cache server a workload runs against. */
public enum Backend {

    /** redis-server. */
    REDIS("Redis"),

    /** memcached. */
    MEMCACHED("memcached"),

    /**
     * A local Redis Cluster of three masters (and three replicas), on loopback only: its nodes
     * announce their own addresses, which a proxy in front of them cannot rewrite.
     */
    REDIS_CLUSTER("Redis Cluster (3 masters)");

    private final String label;

    Backend(String label) {
        this.label = label;
    }

    /**
     * Whether a workload of this backend can run over a network.
     * @param network the path
     * @return {@code false} for the cluster over the delaying proxy
     */
    public boolean supports(Network network) {
        return this != REDIS_CLUSTER || network == Network.LOOPBACK;
    }

    /** @return the name shown in reports */
    public String label() {
        return this.label;
    }
}
