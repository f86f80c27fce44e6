package io.adaptivecache.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own per transport by {@link RedisEventLoopPlacementIntegrationTests} (Lettuce
 * chooses one transport per JVM): runs the {@link PlacementRace} on the transport asked for and
 * prints the transport used and the rounds whose MULTI had two connections on one I/O thread.
 */
public final class EventLoopPlacementProbe {

    private EventLoopPlacementProbe() {
    }

    /**
     * @param args the Redis URI, the transport, the I/O threads, the MULTI's connections and the rounds
     * @throws Exception when a round fails
     */
    public static void main(String[] args) throws Exception {
        RedisTransport transport = RedisTransport.of(args[1]);
        int ioThreads = Integer.parseInt(args[2]);
        int connections = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        ExecutorService executor = Executors.newFixedThreadPool(PlacementRace.CALLERS + 1);
        List<String> crowded = new ArrayList<>();
        try {
            for (int round = 0; round < rounds; round++) {
                List<String> threads = PlacementRace.switchFromPool(args[0], transport, ioThreads, connections, executor);
                if (PlacementRace.crowded(threads, ioThreads)) {
                    crowded.add(threads.toString());
                }
            }
        }
        finally {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        System.out.println("in-use=" + RedisTransport.inUse().label() + " rounds=" + rounds + " crowded=" + crowded.size() + " "
                + crowded);
        System.exit(0);
    }
}
