package io.adaptivecache.memcached;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.protocol.binary.BinaryOperationFactory;
import org.jspecify.annotations.Nullable;

/**
 * A spymemcached {@link ConnectionFactory} ({@link #asConnectionFactory()}) built by {@code ConnectionFactoryBuilder} (so user
 * customizers apply), with what the builder cannot do: a ketama ring with per-server weights
 * ({@code KETAMA_HASH}, 160 points per server on average, each server's share by weight), and
 * binary-protocol connections that merge gets without merging stores ({@link GetMergingBinaryNode}).
 *
 * <p>spymemcached gives a server {@code 4 * floor(40 * servers * weight / totalWeight)} points (the
 * libketama formula, computed in {@code float}) and then asserts that the ring holds exactly
 * {@code 160 * servers}. The floor drops each server's fraction of a group of four points, so for
 * most unequal weights the ring is short and the assertion fails. The weights handed to it are
 * therefore the groups of four each server gets: the groups the floor would drop go to the servers
 * with the largest fractions (largest remainder), so they sum to {@code 40 * servers}. spymemcached's
 * float arithmetic does not give every count back exactly (it lands a hair below the whole number
 * for about one count in eight, and for 5 or 10 servers for every count from 1 to 4), so the counts
 * are then moved, keeping the total, to the nearest ones it does give back, fewest groups moved in
 * all. Most servers keep their share to the group; a server of a very small weight (a share of 1 to
 * 4 groups, under a tenth of the average) may get up to 4 groups more, none loses all its points,
 * and the large servers give up what the small ones take, each at most an eighth of its own. Where
 * the floor drops nothing and the arithmetic is exact the ring is libketama's.
 */
final class WeightedKetamaConnectionFactory {

    private final ConnectionFactory delegate;
    private final Map<InetSocketAddress, Integer> weights;

    WeightedKetamaConnectionFactory(ConnectionFactory delegate, Map<InetSocketAddress, Integer> weights) {
        this.delegate = delegate;
        this.weights = Map.copyOf(weights);
    }

    /**
     * The ring: weighted when the servers' weights differ, spymemcached's plain ketama ring when not,
     * answered without hashing while it holds one server.
     * @param nodes the ring's servers
     * @return the locator
     */
    NodeLocator createLocator(List<MemcachedNode> nodes) {
        boolean weighted = weights.values().stream().distinct().count() > 1;
        NodeLocator ring = weighted
                ? new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH, KetamaNodeKeyFormatter.Format.SPYMEMCACHED,
                        pointGroups(nodes))
                : new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH);
        return nodes.size() == 1 ? new OneServerLocator(ring) : ring;
    }

    /** Points per server come in groups of four (one MD5 digest each); 160 points per server on average. */
    private static final int GROUPS_PER_SERVER = 40;

    /**
     * The weights to hand to spymemcached: each server's groups of four points, by largest
     * remainder, so that they add up to exactly 40 per server (see the class description).
     * @param nodes the ring's servers
     * @return the groups per server's address
     */
    Map<InetSocketAddress, Integer> pointGroups(List<MemcachedNode> nodes) {
        List<InetSocketAddress> addresses = nodes.stream().map(node -> (InetSocketAddress) node.getSocketAddress()).toList();
        return pointGroups(addresses, this.weights);
    }

    static Map<InetSocketAddress, Integer> pointGroups(List<InetSocketAddress> addresses, Map<InetSocketAddress, Integer> weights) {
        int servers = addresses.size();
        long total = 0;
        for (InetSocketAddress address : addresses) {
            total += weights.get(address);
        }
        int groups = GROUPS_PER_SERVER * servers;
        int[] given = new int[servers];
        long[] remainders = new long[servers];
        int left = groups;
        for (int i = 0; i < servers; i++) {
            // Exact integer arithmetic: groups * weight / total, and what the floor leaves.
            long share = (long) groups * weights.get(addresses.get(i));
            given[i] = (int) (share / total);
            remainders[i] = share % total;
            left -= given[i];
        }
        // The groups the floor dropped go to the largest remainders; ties to the earlier server, so the ring is stable.
        for (; left > 0; left--) {
            int largest = 0;
            for (int i = 1; i < servers; i++) {
                if (remainders[i] > remainders[largest]) {
                    largest = i;
                }
            }
            given[largest]++;
            remainders[largest] = -1;
        }
        // spymemcached computes each server's groups in float from weight / totalWeight, and for some counts
        // the product lands a hair below the whole number and the floor drops one. Handing it the groups as
        // the weights (total 40 per server), each server's count is moved, by at most maxMove groups from the
        // largest-remainder count, to one it computes exactly, keeping the total: the moves that change the
        // fewest groups in all (a small dynamic programme over the running surplus).
        int[] exact = exactSplit(given, groups, servers);
        if (exact == null) {
            throw new IllegalStateException("No split of " + groups + " groups of ketama points over " + addresses
                    + " that spymemcached computes exactly near the weights " + weights);
        }
        Map<InetSocketAddress, Integer> result = new java.util.HashMap<>();
        for (int i = 0; i < servers; i++) {
            result.put(addresses.get(i), exact[i]);
        }
        return result;
    }

    /**
     * How far a server's count may move from its largest-remainder count: for 5 or 10 servers
     * spymemcached computes none of 1 to 4 groups exactly, so a server that should have one needs 4.
     */
    private static final int MAX_MOVE = 4;

    /**
     * Counts within {@link #MAX_MOVE} of {@code split}, each one spymemcached computes exactly and
     * none zero where the split is not, with the same total and the fewest groups moved.
     * @return the counts, or {@code null} if there are none
     */
    private static int @Nullable [] exactSplit(int[] split, int groups, int servers) {
        int[] reach = new int[servers];
        int width = 1;
        for (int k = 0; k < servers; k++) {
            reach[k] = maxMove(split[k]);
            width += 2 * reach[k];
        }
        int offset = width / 2;
        // cost[k][s]: fewest groups moved among the first k servers with a surplus of s - offset; move[k][s]: the k-th move.
        int[][] cost = new int[servers + 1][width];
        int[][] move = new int[servers + 1][width];
        for (int[] row : cost) {
            java.util.Arrays.fill(row, Integer.MAX_VALUE);
        }
        cost[0][offset] = 0;
        for (int k = 0; k < servers; k++) {
            for (int s = 0; s < width; s++) {
                if (cost[k][s] == Integer.MAX_VALUE) {
                    continue;
                }
                for (int d = -reach[k]; d <= reach[k]; d++) {
                    int count = split[k] + d;
                    int next = s + d;
                    // A server the split gives points keeps some: with none it would get no key at all.
                    boolean dropped = split[k] > 0 && count <= 0;
                    if (count < 0 || dropped || next < 0 || next >= width || spymemcachedGroups(count, groups, servers) != count) {
                        continue;
                    }
                    int total = cost[k][s] + Math.abs(d);
                    if (total < cost[k + 1][next]) {
                        cost[k + 1][next] = total;
                        move[k + 1][next] = d;
                    }
                }
            }
        }
        if (cost[servers][offset] == Integer.MAX_VALUE) {
            return null;
        }
        int[] counts = new int[servers];
        for (int k = servers, s = offset; k > 0; k--) {
            int d = move[k][s];
            counts[k - 1] = split[k - 1] + d;
            s -= d;
        }
        return counts;
    }

    /** How far a count may move: {@link #MAX_MOVE} groups, or an eighth of a large server's, to make room for small ones. */
    static int maxMove(int split) {
        return Math.max(MAX_MOVE, split / 8);
    }

    /** spymemcached 2.12's arithmetic for one server's groups of four points, float for float. */
    static int spymemcachedGroups(int weight, int totalWeight, int servers) {
        float percent = (float) weight / (float) totalWeight;
        return (int) Math.floor(percent * (float) (GROUPS_PER_SERVER * 4) / 4.0F * (float) servers + 0.0000000001);
    }

    /**
     * This factory as spymemcached takes it: a {@link ConnectionFactory} that answers
     * {@code createLocator}, {@code createConnection}, {@code createMemcachedNode} and
     * {@code getHashAlg} here and every other method from the builder's factory.
     *
     * <p>A proxy rather than two dozen hand-written forwarders: the set of methods then follows
     * spymemcached's interface by itself. None of them is on the per-operation path:
     * {@code MemcachedClient} and {@code MemcachedConnection} read them when they start, reconnect
     * or shut down, and each node is given the builder's factory itself (see {@code createNode}).
     * @return the factory to open a {@code MemcachedClient} with
     */
    ConnectionFactory asConnectionFactory() {
        return (ConnectionFactory) Proxy.newProxyInstance(ConnectionFactory.class.getClassLoader(),
                new Class<?>[] {ConnectionFactory.class}, this::answer);
    }

    /**
     * A connection to one server: on the binary protocol with merging on ({@code shouldOptimize}),
     * one that merges only the gets queued on it ({@link GetMergingBinaryNode}); otherwise
     * spymemcached's own (whose text-protocol node merges only gets as well).
     */
    private MemcachedNode createNode(SocketAddress address, SocketChannel channel, int bufferSize) {
        if (delegate.shouldOptimize() && delegate.getOperationFactory() instanceof BinaryOperationFactory) {
            return new GetMergingBinaryNode(delegate, address, channel, bufferSize, delegate.getAuthDescriptor() != null);
        }
        return delegate.createMemcachedNode(address, channel, bufferSize);
    }

    private @Nullable Object answer(Object proxy, Method method, @Nullable Object @Nullable [] args) throws Throwable {
        ConnectionFactory self = (ConnectionFactory) proxy;
        // Only the methods that take arguments read args (a proxy passes null for none).
        switch (method.getName()) {
            case "createLocator":
                @SuppressWarnings("unchecked")
                List<MemcachedNode> nodes = (List<MemcachedNode>) args[0];
                return createLocator(nodes);
            case "createConnection":
                // Passes the proxy, not the delegate, so that the connection asks us for its locator; the
                // connection drains its bounded queues after a stall and wakes callers after its reads (SpymemcachedIoThread).
                @SuppressWarnings("unchecked")
                List<InetSocketAddress> addresses = (List<InetSocketAddress>) args[0];
                return new SpymemcachedIoThread(self.getReadBufSize(), self, addresses, self.getInitialObservers(),
                        self.getFailureMode(), self.getOperationFactory());
            case "createMemcachedNode":
                return createNode((SocketAddress) args[0], (SocketChannel) args[1], (Integer) args[2]);
            case "getHashAlg":
                return DefaultHashAlgorithm.KETAMA_HASH;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "weighted ketama over " + delegate;
            default:
                try {
                    return method.invoke(delegate, args);
                }
                catch (InvocationTargetException ex) {
                    throw ex.getCause();
                }
        }
    }
}
