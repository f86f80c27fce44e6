package io.adaptivecache.benchmarks.http;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import io.adaptivecache.benchmarks.http.app.AppVariant;
import org.jspecify.annotations.Nullable;

/**
 * The end-to-end benchmark's entry point ({@code --goals e2e}): the items application in each
 * variant, loaded over HTTP by wrk in alternating slices, then {@code e2e.md}, {@code slices.csv}
 * and a chart of the ratios in the run's directory.
 */
public final class HttpBenchmark {

    private HttpBenchmark() {
    }

    /**
     * Runs the benchmark and writes its report.
     * @param settings how it measures
     * @param facts the run's facts by section (command, machine, versions), given its start and end
     * @return the report, {@code e2e.md}
     * @throws Exception if an application, wrk or Redis fails
     */
    public static Path run(Settings settings, BiFunction<Instant, Instant, Map<String, Map<String, String>>> facts) throws Exception {
        HttpRun.Result result = new HttpRun(settings).run();
        return HttpReport.write(settings, result, facts.apply(result.started(), result.finished()));
    }

    /**
     * How an end-to-end run measures.
     * @param out where results go
     * @param connections wrk's connection counts, each a workload
     * @param apps the applications to run (variant ids, {@code spring-defaults#2} for the A/A twin); empty for all
     * @param redisAddress a running Redis to use ({@code host:port}), or {@code null} to start one on a free port
     * @param delay the delay each way of a proxy between the applications and Redis, as a network round trip would add;
     *        zero for none (the applications connect to Redis directly, over loopback)
     * @param timeout how long one request may take before wrk counts it as a timeout
     * @param warmUp the least load on each application, per connection count, before its first slice
     * @param settle how much longer the warm-up may go on while the application's JIT keeps compiling
     * @param ramp unmeasured load just before each slice (whole seconds, or zero)
     * @param slice each slice's measured length (whole seconds)
     * @param pairs the least cycles per connection count
     * @param maxPairs the most, while a goal is undecided
     * @param batch cycles added at a time after the least
     * @param maxDisturbanceCores outside CPU plus steal, in cores, above which a slice is dropped
     * @param appHeap each application JVM's maximum heap
     */
    public record Settings(Path out, List<Integer> connections, List<String> apps, @Nullable String redisAddress, Duration delay,
            Duration timeout,
            Duration warmUp, Duration settle, Duration ramp, Duration slice, int pairs, int maxPairs, int batch,
            double maxDisturbanceCores, String appHeap) {

        /**
         * Checks what wrk can do: it counts in whole seconds.
         * @param out where results go
         * @param connections connection counts
         * @param apps applications
         * @param redisAddress a running Redis, or {@code null}
         * @param delay the proxy's delay each way, or zero for none
         * @param timeout the request timeout
         * @param warmUp the least warm-up
         * @param settle the longest extra warm-up
         * @param ramp the ramp
         * @param slice the slice
         * @param pairs the least cycles
         * @param maxPairs the most cycles
         * @param batch the batch
         * @param maxDisturbanceCores the disturbance limit
         * @param appHeap the heap
         */
        public Settings {
            connections = List.copyOf(connections);
            apps = List.copyOf(apps);
            if (delay.isNegative()) {
                throw new IllegalArgumentException("The proxy's delay must be zero or more; was " + delay.toMillis() + " ms");
            }
            if (slice.toMillis() < 1000 || slice.toMillis() % 1000 != 0) {
                throw new IllegalArgumentException("--slice must be whole seconds for wrk, at least 1s; was " + slice.toMillis() + " ms");
            }
            if (ramp.toMillis() % 1000 != 0) {
                throw new IllegalArgumentException("--ramp must be whole seconds for wrk, or 0s; was " + ramp.toMillis() + " ms");
            }
            for (String app : apps) {
                AppVariant.of(AppProcess.variantId(app));
            }
            if (maxPairs < pairs) {
                maxPairs = pairs;
            }
        }
    }
}
