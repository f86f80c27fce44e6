package io.adaptivecache.benchmarks.http;

/**
 * One application loaded alone over HTTP for a short time, and what the rest of the machine did
 * meanwhile.
 *
 * @param connections wrk's connections, each one request in flight
 * @param cycle the cycle, from 1: every application runs once per cycle
 * @param position its place in the cycle, from 0
 * @param app the application's id (a variant's, {@code #2} for the A/A twin)
 * @param requests responses in the measured run
 * @param requestsPerSecond those per second
 * @param errors failed requests, non-2xx answers and timeouts
 * @param p50Micros median latency
 * @param p99Micros 99th percentile latency
 * @param appCpuMicrosPerRequest the application JVM's CPU time per request
 * @param loads items the application made during the slice, each a cache miss (0 once every id is cached)
 * @param outsideCores CPU used by processes that are not the benchmark's, in cores
 * @param stealCores steal time, in cores
 * @param irqCores interrupt work, in cores
 * @param oursCores CPU of the benchmark's processes (harness, applications, Redis, wrk), in cores
 * @param strategy the adaptive template's strategy at the slice's end; {@code -} for Boot's variants
 * @param switches the adaptive template's switches since it started
 */
record HttpSlice(int connections, int cycle, int position, String app, long requests, double requestsPerSecond, long errors,
        double p50Micros, double p99Micros, double appCpuMicrosPerRequest, long loads, double outsideCores, double stealCores,
        double irqCores, double oursCores, String strategy, int switches) {

    /**
     * Whether another process took more than a limit from the machine during the slice.
     * @param maxDisturbanceCores the limit, in cores of outside CPU plus steal
     * @return whether the slice is to be dropped
     */
    boolean disturbed(double maxDisturbanceCores) {
        return this.outsideCores + this.stealCores > maxDisturbanceCores;
    }

    /** @return whether the slice measured requests and no failures */
    boolean usable() {
        return this.requests > 0 && this.errors == 0;
    }
}
