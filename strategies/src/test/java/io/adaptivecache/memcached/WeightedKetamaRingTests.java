package io.adaptivecache.memcached;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The weighted ketama ring spymemcached builds from the weights this library hands it: with Java
 * assertions on (as every test run has them, spymemcached's included), it keeps spymemcached's
 * invariant of exactly 160 points per server, keeps each server's points near its weight's exact
 * share (a bound from the ring's own statistics, see {@link #allowedPointsOff}), and leaves no server with a share
 * of a group or more without points. Only the ring is computed here (nodes that have an address and
 * nothing else); the ring tests on real servers check where keys land.
 */
class WeightedKetamaRingTests {

    @Test
    void spymemcachedItselfShouldAssertOnTheRawWeightsWhoseFloorDropsPoints() {
        // The reason for this class: 2:1 gives 53.3 and 26.7 groups, floored to 79 of 80.
        List<MemcachedNode> nodes = nodes(2);
        Map<InetSocketAddress, Integer> raw = Map.of(address(nodes, 0), 2, address(nodes, 1), 1);
        assertThat(KetamaNodeLocator.class.desiredAssertionStatus()).as("tests run with -ea").isTrue();
        assertThatThrownBy(() -> new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH,
                KetamaNodeKeyFormatter.Format.SPYMEMCACHED, raw)).isInstanceOf(AssertionError.class);
    }

    @Test
    void everyWeightingOfTwoToFourServersShouldKeepSpymemcachedsInvariantAndTheWeightsShares() throws Exception {
        for (int servers = 2; servers <= 4; servers++) {
            int combinations = (int) Math.pow(6, servers);
            for (int c = 0; c < combinations; c++) {
                int[] weights = new int[servers];
                for (int i = 0, rest = c; i < servers; i++, rest /= 6) {
                    weights[i] = 1 + rest % 6;
                }
                checkRing(weights);
            }
        }
    }

    @Test
    void randomWeightingsOfUpToSixteenServersShouldKeepSpymemcachedsInvariantAndTheWeightsShares() throws Exception {
        Random random = new Random(20261124L);
        for (int run = 0; run < 200; run++) {
            int[] weights = new int[2 + random.nextInt(15)];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = 1 + random.nextInt(random.nextBoolean() ? 10 : 1000);
            }
            checkRing(weights);
        }
    }

    private static void checkRing(int[] weights) throws Exception {
        int servers = weights.length;
        List<MemcachedNode> nodes = nodes(servers);
        Map<InetSocketAddress, Integer> configured = new HashMap<>();
        long total = 0;
        for (int i = 0; i < servers; i++) {
            configured.put(address(nodes, i), weights[i]);
            total += weights[i];
        }
        String what = java.util.Arrays.toString(weights);
        WeightedKetamaConnectionFactory factory = new WeightedKetamaConnectionFactory(null, configured);

        // Constructing it runs spymemcached's assertion.
        KetamaNodeLocator ring = (KetamaNodeLocator) factory.createLocator(nodes);

        Map<MemcachedNode, Integer> points = pointsPerNode(ring);
        assertThat(points.values().stream().mapToInt(Integer::intValue).sum()).as("ring size for " + what).isEqualTo(160 * servers);
        for (int i = 0; i < servers; i++) {
            double exactPoints = 160.0 * servers * weights[i] / total;
            int serverPoints = points.getOrDefault(nodes.get(i), 0);
            double off = Math.abs(serverPoints - exactPoints);
            assertThat(off).as("points of server %d of %s: %d for an exact share of %.1f", i, what, serverPoints, exactPoints)
                    .isLessThanOrEqualTo(allowedPointsOff(exactPoints));
            double exactGroups = exactPoints / 4;
            if (exactGroups >= 1) {
                assertThat(serverPoints).as("server %d of %s keeps points", i, what).isPositive();
            }
        }
    }

    /**
     * How far a server's points may be from its weight's exact share, from the ring's own statistics rather than from
     * the code under test. A ketama ring places a server's n points at random, so its share of the keys spreads by
     * about sqrt(n) points' worth (one standard deviation) around n; a split error within 3.5 of those is of the order of
     * the ring's own noise. Small servers are held to 20 points instead (five groups of four): spymemcached's float
     * arithmetic computes none of 1 to 4 groups exactly for 5 or 10 servers, so such a server may be moved by 4 groups,
     * and by one more for the floor or ceiling of its share. (On these weightings the split reaches 3.2 deviations, and
     * 18 points for a small server.)
     */
    private static double allowedPointsOff(double exactPoints) {
        return Math.max(20, 3.5 * Math.sqrt(exactPoints));
    }

    @SuppressWarnings("unchecked")
    private static Map<MemcachedNode, Integer> pointsPerNode(KetamaNodeLocator ring) throws Exception {
        Field field = KetamaNodeLocator.class.getDeclaredField("ketamaNodes");
        field.setAccessible(true);
        Map<MemcachedNode, Integer> points = new HashMap<>();
        ((TreeMap<Long, MemcachedNode>) field.get(ring)).values().forEach(node -> points.merge(node, 1, Integer::sum));
        return points;
    }

    private static InetSocketAddress address(List<MemcachedNode> nodes, int index) {
        return (InetSocketAddress) nodes.get(index).getSocketAddress();
    }

    /** Nodes that only have an address, which is all a ring is computed from. */
    static List<MemcachedNode> nodes(int count) {
        List<MemcachedNode> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", 21000 + i);
            nodes.add((MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(),
                    new Class<?>[] { MemcachedNode.class }, (proxy, method, args) -> switch (method.getName()) {
                        case "getSocketAddress" -> address;
                        case "toString" -> "node " + address;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> throw new UnsupportedOperationException(method.getName());
                    }));
        }
        return nodes;
    }
}
