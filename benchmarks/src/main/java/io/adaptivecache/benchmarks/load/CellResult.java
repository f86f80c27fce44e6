package io.adaptivecache.benchmarks.load;

import io.adaptivecache.redis.RedisWrites;

/**
 * The figures of one target on one workload in one round.
 *
 * @param target the target's id
 * @param workload the workload
 * @param round the round, from 1
 * @param operations calls that started and completed inside the measured window
 * @param misses gets among them that found no value (the key space is filled first, so these should be none)
 * @param opsPerSecond those calls per second
 * @param p50Micros median latency
 * @param p99Micros 99th percentile latency
 * @param p999Micros 99.9th percentile latency
 * @param errors calls that failed inside the measured window
 * @param firstError the first failure's type and message, or {@code null}
 * @param cpuCores client-process CPU time over the window's wall time (2.0 = both cores busy)
 * @param cpuMicrosPerOperation client-process CPU time per measured call
 * @param settling how a self-tuning target got to its steady state
 * @param redisWrites the commands and socket writes of the client's Redis connections over the measured window (the
 *        difference of the counters from its start to its end), or {@code null} for a client without them
 */
public record CellResult(String target, Workload workload, int round, long operations, long misses, double opsPerSecond, double p50Micros,
        double p99Micros, double p999Micros, long errors, String firstError, double cpuCores, double cpuMicrosPerOperation,
        Settling settling, RedisWrites redisWrites) {

    /**
     * Commands per socket write over the measured window.
     * @return the ratio, or NaN for a client without the counters or one that wrote nothing through them in the window
     *     (a template whose calls all went over Jedis's own connections)
     */
    public double commandsPerWrite() {
        return this.redisWrites == null || this.redisWrites.writes() == 0 ? Double.NaN : this.redisWrites.commandsPerWrite();
    }
}
