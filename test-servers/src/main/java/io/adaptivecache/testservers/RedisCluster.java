package io.adaptivecache.testservers;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster of six local {@code redis-server} processes, three masters with one replica
 * each, on free loopback ports, with no persistence. Each node is a {@link RedisServer}, so a
 * test can {@link RedisServer#kill() kill}, {@link RedisServer#freeze() freeze} or
 * {@link RedisServer#restart() restart} one and watch the cluster fail over.
 *
 * <p>Roles change after a failover, so {@link #masters()}, {@link #replicas()},
 * {@link #masterOf(String)} and {@link #replicaOf(RedisServer)} read the topology live from
 * {@code CLUSTER NODES} on a node that answers, rather than remembering what {@link #start()} saw.
 *
 * <p>The cluster always starts its own processes: {@code ADAPTIVE_CACHE_TEST_REDIS} (which
 * points single-server tests at a running server) is not used here.
 */
public final class RedisCluster implements AutoCloseable {

    /** The number of hash slots a Redis Cluster divides keys into. */
    public static final int SLOTS = 16384;

    private static final int NODE_COUNT = 6;

    private static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(1000);

    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(30);

    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    /** How long {@link #replicaOf} asks before it answers "none". */
    private static final Duration REPLICA_WAIT = Duration.ofSeconds(10);

    private static final String INSTALL_HINT = "sudo apt-get install -y redis-server (Debian/Ubuntu; redis-cli alone is in"
            + " redis-tools) or brew install redis (macOS)";

    private final Duration nodeTimeout;

    /**
     * Written under {@code this} by start and stop, read without it: start() holds the lock
     * while it waits for the cluster, and the wait reads the nodes on Awaitility's thread.
     */
    private volatile List<RedisServer> nodes = List.of();

    /**
     * The port of the master each replica was last seen replicating, by the replica's port. An
     * entry outlives the replica's promotion, because that is exactly when
     * {@link #awaitFailoverOf} needs to know whose replica it was.
     */
    private final Map<Integer, Integer> lastMasterPortByReplicaPort = new ConcurrentHashMap<>();

    private Path directory;

    /** A cluster with the default {@code cluster-node-timeout} of 1 s, not started yet. */
    public RedisCluster() {
        this(DEFAULT_NODE_TIMEOUT);
    }

    private RedisCluster(Duration nodeTimeout) {
        if (nodeTimeout.isNegative() || nodeTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("cluster-node-timeout must be at least 1 ms: " + nodeTimeout);
        }
        this.nodeTimeout = nodeTimeout;
    }

    /**
     * A cluster with the given {@code cluster-node-timeout}: how long a node may be unreachable
     * before it is suspected to have failed. A failover takes about one to three times this long.
     * @param nodeTimeout the node timeout, at least 1 ms
     * @return a cluster that is not started yet
     */
    public static RedisCluster withNodeTimeout(Duration nodeTimeout) {
        return new RedisCluster(nodeTimeout);
    }

    /** The {@code cluster-node-timeout} the nodes are started with. */
    public Duration nodeTimeout() {
        return nodeTimeout;
    }

    /**
     * Starts six nodes, joins them into a cluster with {@code redis-cli --cluster create} and
     * waits until it is {@linkplain #awaitHealthy(Duration) healthy}. If any step fails, every
     * process started so far is stopped before the failure is thrown. Does nothing if the
     * cluster is already started.
     */
    public synchronized void start() {
        if (!nodes.isEmpty()) {
            return;
        }
        // Check before starting anything, so that a missing tool costs no processes to clean up.
        String cli = ServerProcess.findOnPath("redis-cli");
        if (cli == null) {
            throw new IllegalStateException("redis-cli was not found on PATH; the Redis Cluster tests need it to create the"
                    + " cluster. Install it with: " + INSTALL_HINT);
        }
        try {
            directory = Files.createTempDirectory("redis-cluster-");
            for (int i = 0; i < NODE_COUNT; i++) {
                RedisServer node = newNode(directory);
                // Registered before it starts, so that stop() also ends a node whose start failed halfway.
                nodes = Stream.concat(nodes.stream(), Stream.of(node)).toList();
                node.start();
            }
            createCluster(cli);
            awaitHealthy(HEALTHY_TIMEOUT);
        }
        catch (IOException ex) {
            stopAfterFailure(ex);
            throw new UncheckedIOException("Cannot create a directory for the cluster's files", ex);
        }
        catch (RuntimeException | Error ex) {
            stopAfterFailure(ex);
            throw ex;
        }
    }

    private void stopAfterFailure(Throwable failure) {
        try {
            stop();
        }
        catch (RuntimeException ex) {
            failure.addSuppressed(ex);
        }
    }

    private RedisServer newNode(Path directory) {
        // The node's port is only chosen when it starts (and again if a start attempt fails), so
        // the arguments that name it are made per port; the same port always gets the same bus
        // port, so that restart() comes back where the other nodes expect it.
        Map<Integer, Integer> busPorts = new ConcurrentHashMap<>();
        String nodeTimeoutMillis = Long.toString(nodeTimeout.toMillis());
        return RedisServer.clusterNode(port -> List.of("--cluster-enabled", "yes",
                // Without it the bus port is port + 10000, which is above 65535 for much of the
                // ephemeral range that free ports come from, and may be taken by something else.
                "--cluster-port", Integer.toString(busPorts.computeIfAbsent(port, RedisCluster::freeBusPort)),
                "--cluster-config-file", directory.resolve("nodes-" + port + ".conf").toString(),
                "--cluster-node-timeout", nodeTimeoutMillis,
                // So that a replica is always allowed to take over, however long its link was down.
                "--cluster-replica-validity-factor", "0",
                // So that the one-replica-per-master layout stays as created while masters fail.
                "--cluster-allow-replica-migration", "no",
                // As a cache cluster should run: the other masters keep serving their slots while
                // one is down, instead of every node answering CLUSTERDOWN until the failover.
                "--cluster-require-full-coverage", "no",
                // A master otherwise waits 5 s for more replicas before the first full sync, and
                // start() and awaitHealthy() wait for every replica's link to be up.
                "--repl-diskless-sync-delay", "0",
                "--dir", directory.toString()));
        // --save "" and --appendonly no come from RedisServer itself.
    }

    private static int freeBusPort(int port) {
        int busPort;
        do {
            busPort = ServerProcess.freeLoopbackPort();
        }
        while (busPort == port);
        return busPort;
    }

    private void createCluster(String cli) {
        List<String> command = new ArrayList<>(List.of(cli, "--cluster", "create"));
        for (RedisServer node : nodes) {
            command.add(node.address());
        }
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Path output = directory.resolve("cluster-create.log");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            // --cluster-yes answers its one question; closing stdin keeps it from waiting for any other.
            process.getOutputStream().close();
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot run " + String.join(" ", command), ex);
        }
        try {
            if (!process.waitFor(CREATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IllegalStateException("redis-cli --cluster create did not finish within " + CREATE_TIMEOUT.toSeconds()
                        + " s; output: " + read(output));
            }
        }
        catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating the cluster", ex);
        }
        String log = read(output);
        if (process.exitValue() != 0 || !log.contains("All " + SLOTS + " slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed with exit code " + process.exitValue()
                    + "; command: " + String.join(" ", command) + "; output: " + log);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException ex) {
            return "(unreadable: " + ex.getMessage() + ")";
        }
    }

    /**
     * Stops every node this cluster started (thawing frozen ones first, so that they can exit
     * gracefully) and deletes its directory. Safe to call after a failed or partial
     * {@link #start()}, and more than once.
     */
    public synchronized void stop() {
        RuntimeException failure = null;
        for (RedisServer node : nodes) {
            try {
                node.thaw();
            }
            catch (RuntimeException ex) {
                // stop() below ends a frozen node anyway, with SIGKILL after its grace period.
            }
            try {
                node.stop();
            }
            catch (RuntimeException ex) {
                // Keep going: one node that will not stop must not leave the others running.
                if (failure == null) {
                    failure = ex;
                }
                else {
                    failure.addSuppressed(ex);
                }
            }
        }
        nodes = List.of();
        lastMasterPortByReplicaPort.clear();
        if (directory != null) {
            deleteRecursively(directory);
            directory = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException ex) {
            // A leftover temp directory is harmless; a failed stop() would hide the test's own result.
        }
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    /** All six nodes in the order they were started, whatever their current role; empty before {@link #start()}. */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /**
     * The nodes that are masters now, as seen by a node that answers: those flagged
     * {@code master}, owning slots and not {@code fail} in {@code CLUSTER NODES} whose process
     * is running. A replica that the answering node has not heard of as one yet (it lists it as a
     * master without slots) is left out.
     * A master that was just killed is left out even before the cluster notices; a frozen one
     * is still listed until the cluster flags it {@code fail}.
     */
    public List<RedisServer> masters() {
        return nodesWithRole(line -> line.master() && line.slotCount() > 0);
    }

    /** The nodes that are replicas now, read like {@link #masters()}. */
    public List<RedisServer> replicas() {
        return nodesWithRole(NodeLine::replica);
    }

    private List<RedisServer> nodesWithRole(java.util.function.Predicate<NodeLine> role) {
        Map<Integer, NodeLine> linesByPort = byPort(view(null));
        List<RedisServer> result = new ArrayList<>();
        for (RedisServer node : nodes()) {
            NodeLine line = linesByPort.get(node.port());
            if (line != null && role.test(line) && !line.failed() && isRunning(node)) {
                result.add(node);
            }
        }
        return result;
    }

    /** The nodes' URIs for Lettuce, {@code redis://127.0.0.1:PORT}, in the order of {@link #nodes()}. */
    public List<String> seedUris() {
        return nodes().stream().map(node -> "redis://" + node.address()).toList();
    }

    /** The nodes' addresses as {@code 127.0.0.1:PORT,127.0.0.1:PORT,...}, as {@code spring.data.redis.cluster.nodes} takes them. */
    public String seedAddresses() {
        return nodes().stream().map(RedisServer::address).collect(Collectors.joining(","));
    }

    /**
     * The hash slot of a key, as Redis computes it: CRC16 (XMODEM) of the key's UTF-8 bytes, or
     * of its hash tag (the part between the first <code>{</code> and the next <code>}</code>,
     * if not empty), modulo {@value #SLOTS}.
     * @param key the key
     * @return its slot, from 0 to 16383
     */
    public static int slotOf(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int from = 0;
        int to = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                from = open + 1;
                to = close;
            }
        }
        return crc16(bytes, from, to) % SLOTS;
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (bytes[i] & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = ((crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xFFFF;
            }
        }
        return crc;
    }

    /**
     * The master that serves a key's slot now, as seen by a node that answers. Right after a
     * master is killed, and until the cluster has failed it over, that is still the dead master.
     * @param key the key
     * @return the master that owns the key's slot
     * @throws IllegalStateException if no master owns the slot
     */
    public RedisServer masterOf(String key) {
        int slot = slotOf(key);
        for (NodeLine line : view(null)) {
            if (line.master() && line.owns(slot)) {
                return nodeOn(line.port());
            }
        }
        throw new IllegalStateException("No master owns slot " + slot + " of key " + key);
    }

    /**
     * A key that the given master serves: {@code prefix + i} for the smallest {@code i >= 0}
     * whose slot it owns. Gives a test keys spread over all masters, such as one per master.
     * @param master a node that is a master now
     * @param prefix the start of the key
     * @return a key whose slot the master owns
     * @throws IllegalArgumentException if the node is not a master that owns slots
     */
    public String keyOn(RedisServer master, String prefix) {
        NodeLine line = byPort(view(null)).get(master.port());
        if (line == null || !line.master() || line.slotCount() == 0) {
            throw new IllegalArgumentException(master.address() + " is not a master that owns slots: " + line);
        }
        // A master owns about a third of the slots, so this ends after a few tries.
        for (int i = 0; i < 1_000_000; i++) {
            String key = prefix + i;
            if (line.owns(slotOf(key))) {
                return key;
            }
        }
        throw new IllegalStateException("No key " + prefix + "N falls in the slots of " + master.address());
    }

    /**
     * The replica of a master now, as seen by a node that answers: a running node that is not
     * flagged {@code fail} and replicates it.
     * @param master a node that is a master now
     * @return its replica
     * @throws IllegalStateException if it has none for 10 s (as after its replica was promoted)
     */
    public RedisServer replicaOf(RedisServer master) {
        // A node's view can lag for a moment (a replica flagged by a node starved of CPU, gossip not yet settled), so the
        // question is asked again for a while before the answer is taken as "none".
        try {
            return await("a running replica of " + master.address()).atMost(REPLICA_WAIT).pollDelay(Duration.ZERO)
                    .pollInterval(POLL_INTERVAL).ignoreException(IllegalStateException.class)
                    .until(() -> currentReplicaOf(master), replica -> replica != null);
        }
        catch (ConditionTimeoutException ex) {
            // Asked once more, so that the caller gets the reason rather than the timeout.
            return currentReplicaOf(master);
        }
    }

    private RedisServer currentReplicaOf(RedisServer master) {
        List<NodeLine> view = view(null);
        NodeLine masterLine = byPort(view).get(master.port());
        if (masterLine == null || !masterLine.master()) {
            throw new IllegalArgumentException(master.address() + " is not a master: " + masterLine);
        }
        for (NodeLine line : view) {
            if (line.replica() && masterLine.id().equals(line.masterId()) && !line.failed()) {
                RedisServer replica = nodeOn(line.port());
                if (replica != null && isRunning(replica)) {
                    return replica;
                }
            }
        }
        throw new IllegalStateException(master.address() + " has no running replica");
    }

    /**
     * Waits until the cluster has failed over a master that was killed (or frozen): one of its
     * former replicas reports itself master, and every other running node reports
     * {@code cluster_state:ok} with all {@value #SLOTS} slots ok and owned by running masters,
     * none of them by {@code killedMaster}.
     * @param killedMaster a master that a test stopped, killed or froze
     * @param atMost how long to wait; a failover takes about one to three {@link #nodeTimeout()}s
     * @throws IllegalStateException if the failover does not complete in time (with what was
     *         still wrong), or if no replica of {@code killedMaster} is known
     */
    public void awaitFailoverOf(RedisServer killedMaster, Duration atMost) {
        // Reading the topology first records the replica if the cluster has not promoted it yet;
        // if it has, the record from before the kill names it.
        try {
            view(killedMaster);
        }
        catch (IllegalStateException ex) {
            // No other node answers; the wait below reports that.
        }
        Set<Integer> formerReplicaPorts = new HashSet<>();
        lastMasterPortByReplicaPort.forEach((replicaPort, masterPort) -> {
            if (masterPort == killedMaster.port()) {
                formerReplicaPorts.add(replicaPort);
            }
        });
        if (formerReplicaPorts.isEmpty()) {
            throw new IllegalStateException("No replica of " + killedMaster.address() + " is known, so none can take over");
        }
        awaitState("failover of " + killedMaster.address(), atMost, () -> {
            String promoted = null;
            for (int port : formerReplicaPorts) {
                RedisServer replica = nodeOn(port);
                if (replica != null && replica != killedMaster && isAnswering(replica)) {
                    try {
                        if ("master".equals(replica.info("replication", "role"))) {
                            promoted = replica.address();
                        }
                    }
                    catch (IllegalStateException ex) {
                        // Not answering right now: try again at the next poll.
                    }
                }
            }
            if (promoted == null) {
                return "no former replica of " + killedMaster.address() + " (ports " + formerReplicaPorts + ") is master yet";
            }
            return healthProblem(killedMaster);
        });
    }

    /**
     * Waits until the cluster is healthy: every running node answers and reports
     * {@code cluster_state:ok} and {@code cluster_slots_ok:16384}, knows all six nodes, flags no
     * running node {@code fail}, {@code fail?}, {@code handshake} or {@code noaddr}, sees all
     * slots owned by running masters, and every replica of a running master has
     * {@code master_link_status:up} (so that it can take over). A killed node is tolerated as
     * long as the cluster has failed it over; a frozen one is not.
     * @param atMost how long to wait
     * @throws IllegalStateException if the cluster is not healthy in time, with what was still wrong
     */
    public void awaitHealthy(Duration atMost) {
        awaitState("cluster to be healthy", atMost, () -> healthProblem(null));
    }

    private static void awaitState(String description, Duration atMost, Supplier<String> problem) {
        AtomicReference<String> lastProblem = new AtomicReference<>("not checked yet");
        try {
            await(description).atMost(atMost).pollDelay(Duration.ZERO).pollInterval(POLL_INTERVAL).until(() -> {
                String current = problem.get();
                lastProblem.set(current);
                return current == null;
            });
        }
        catch (ConditionTimeoutException ex) {
            throw new IllegalStateException("Timed out after " + atMost.toMillis() + " ms waiting for " + description
                    + "; last problem: " + lastProblem.get(), ex);
        }
    }

    /**
     * What keeps the cluster from being healthy, ignoring {@code excluded} and stopped nodes.
     * @return a description of the first problem found, or {@code null} if there is none
     */
    private String healthProblem(RedisServer excluded) {
        List<RedisServer> all = nodes();
        if (all.isEmpty()) {
            return "the cluster is not started";
        }
        Set<Integer> allPorts = all.stream().map(RedisServer::port).collect(Collectors.toSet());
        List<RedisServer> live = all.stream().filter(node -> node != excluded && isRunning(node)).toList();
        Set<Integer> livePorts = live.stream().map(RedisServer::port).collect(Collectors.toSet());
        for (RedisServer node : live) {
            String info;
            List<NodeLine> view;
            try {
                info = node.command("CLUSTER", "INFO");
                view = topology(node);
            }
            catch (IllegalStateException ex) {
                return node.address() + " does not answer: " + ex.getMessage();
            }
            String state = field(info, "cluster_state");
            if (!"ok".equals(state)) {
                return node.address() + " reports cluster_state:" + state;
            }
            String slotsOk = field(info, "cluster_slots_ok");
            if (!Integer.toString(SLOTS).equals(slotsOk)) {
                return node.address() + " reports cluster_slots_ok:" + slotsOk;
            }
            if (view.size() != all.size()) {
                return node.address() + " knows " + view.size() + " of " + all.size() + " nodes: " + view;
            }
            int slotsOfLiveMasters = 0;
            NodeLine myself = null;
            for (NodeLine line : view) {
                if (!allPorts.contains(line.port()) || line.flags().contains("handshake")) {
                    return node.address() + " is still meeting a node: " + line;
                }
                if (line.flags().contains("myself")) {
                    myself = line;
                }
                if (livePorts.contains(line.port())) {
                    if (line.failed() || line.flags().contains("fail?") || line.flags().contains("noaddr")) {
                        return node.address() + " flags a running node: " + line;
                    }
                    if (line.master() && line.slotCount() == 0) {
                        // redis-cli creates the replicas as empty masters; a node that has not heard yet that one
                        // became a replica lists it as a master, and a test that asks for the masters then gets four.
                        return node.address() + " still sees a master without slots (a replica it has not heard of as one): " + line;
                    }
                    if (line.master()) {
                        slotsOfLiveMasters += line.slotCount();
                    }
                }
                else if (line.slotCount() > 0) {
                    return node.address() + " still has slots on stopped node " + line;
                }
            }
            if (slotsOfLiveMasters != SLOTS) {
                return node.address() + " sees " + slotsOfLiveMasters + " slots on running masters: " + view;
            }
            if (myself != null && myself.replica()) {
                String masterId = myself.masterId();
                NodeLine master = view.stream().filter(line -> line.id().equals(masterId)).findFirst().orElse(null);
                if (master != null && livePorts.contains(master.port())) {
                    String link;
                    try {
                        link = node.info("replication", "master_link_status");
                    }
                    catch (IllegalStateException ex) {
                        return node.address() + " has no replication link yet: " + ex.getMessage();
                    }
                    if (!"up".equals(link)) {
                        return "replica " + node.address() + " reports master_link_status:" + link;
                    }
                }
            }
        }
        return null;
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    /**
     * The topology as seen by the first running, not frozen node other than {@code excluded}
     * that answers.
     */
    private List<NodeLine> view(RedisServer excluded) {
        IllegalStateException failure = null;
        for (RedisServer node : nodes()) {
            if (node == excluded || !isAnswering(node)) {
                continue;
            }
            try {
                return topology(node);
            }
            catch (IllegalStateException ex) {
                failure = ex;
            }
        }
        throw new IllegalStateException("No node of the cluster answers (is it started?)", failure);
    }

    /** The node's {@code CLUSTER NODES}, parsed; also records which master each replica follows. */
    private List<NodeLine> topology(RedisServer node) {
        List<NodeLine> lines = new ArrayList<>();
        for (String line : node.command("CLUSTER", "NODES").split("\r?\n")) {
            if (!line.isBlank()) {
                lines.add(NodeLine.parse(line));
            }
        }
        Map<String, Integer> portsById = new HashMap<>();
        for (NodeLine line : lines) {
            portsById.put(line.id(), line.port());
        }
        for (NodeLine line : lines) {
            Integer masterPort = portsById.get(line.masterId());
            if (line.replica() && masterPort != null) {
                lastMasterPortByReplicaPort.put(line.port(), masterPort);
            }
        }
        return lines;
    }

    private static Map<Integer, NodeLine> byPort(List<NodeLine> view) {
        Map<Integer, NodeLine> byPort = new HashMap<>();
        for (NodeLine line : view) {
            byPort.put(line.port(), line);
        }
        return byPort;
    }

    private RedisServer nodeOn(int port) {
        for (RedisServer node : nodes()) {
            if (node.port() == port) {
                return node;
            }
        }
        return null;
    }

    /** Whether the node's process is running (or frozen), as opposed to killed, stopped or never started. */
    private static boolean isRunning(RedisServer node) {
        try {
            return ProcessHandle.of(node.pid()).map(ProcessHandle::isAlive).orElse(false);
        }
        catch (IllegalStateException ex) {
            return false;
        }
    }

    /**
     * Whether the node's process is running and not frozen, so that asking it something will
     * not wait out the admin connection's read timeout. Where there is no {@code /proc}, a
     * frozen node counts as answering.
     */
    private static boolean isAnswering(RedisServer node) {
        if (!isRunning(node)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(node.pid()), "stat"));
            // The state follows the command name, which is in parentheses and may hold spaces.
            int afterName = stat.lastIndexOf(')');
            return afterName < 0 || afterName + 2 >= stat.length() || stat.charAt(afterName + 2) != 'T';
        }
        catch (IOException | RuntimeException ex) {
            return true;
        }
    }

    /**
     * One line of {@code CLUSTER NODES}:
     * {@code <id> <ip:port@busport[,hostname]> <flags> <master id or -> <ping> <pong> <epoch> <link> <slots...>}.
     */
    private record NodeLine(String id, int port, Set<String> flags, String masterId, List<int[]> slotRanges, String text) {

        static NodeLine parse(String text) {
            String[] fields = text.trim().split(" ");
            if (fields.length < 8) {
                throw new IllegalStateException("Unexpected CLUSTER NODES line: " + text);
            }
            String address = fields[1];
            int at = address.indexOf('@');
            String hostPort = at < 0 ? address : address.substring(0, at);
            int port = Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
            List<int[]> ranges = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                String range = fields[i];
                // [slot->-id] and [slot-<-id] are slots being migrated or imported, not owned.
                if (range.startsWith("[")) {
                    continue;
                }
                int dash = range.indexOf('-');
                int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
                ranges.add(new int[] {first, last});
            }
            return new NodeLine(fields[0], port, Set.copyOf(Arrays.asList(fields[2].split(","))), fields[3],
                    List.copyOf(ranges), text);
        }

        boolean master() {
            return flags.contains("master");
        }

        boolean replica() {
            return flags.contains("slave");
        }

        boolean failed() {
            return flags.contains("fail");
        }

        boolean owns(int slot) {
            for (int[] range : slotRanges) {
                if (slot >= range[0] && slot <= range[1]) {
                    return true;
                }
            }
            return false;
        }

        int slotCount() {
            int count = 0;
            for (int[] range : slotRanges) {
                count += range[1] - range[0] + 1;
            }
            return count;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
