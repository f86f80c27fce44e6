package io.adaptivecache.devservers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A {@code redis-server} process on a free loopback port, with no persistence. Set
 * {@code ADAPTIVE_CACHE_TEST_REDIS=127.0.0.1:PORT} to use a running server instead.
 */
public final class RedisServer extends ServerProcess {

    private static final String INSTALL_HINT = "sudo apt-get install -y redis-server (Debian/Ubuntu) or brew install redis (macOS)";

    /**
     * The environment variable a cluster node is given instead of {@code ADAPTIVE_CACHE_TEST_REDIS}.
     * Nobody sets it: six nodes attaching to one external server would make no cluster, so a
     * cluster node always starts its own process even where single-server tests use an external one.
     */
    private static final String NO_EXTERNAL_CLUSTER_NODE = "ADAPTIVE_CACHE_TEST_REDIS_CLUSTER_NODE_IS_NEVER_EXTERNAL";

    private final List<String> extraArguments;
    private final IntFunction<List<String>> portArguments;
    private final TlsMaterial tls;
    private int tlsPort;

    /** Creates a server that is not started yet. */
    public RedisServer() {
        this(List.of(), null);
    }

    private RedisServer(List<String> extraArguments, TlsMaterial tls) {
        this(extraArguments, port -> List.of(), tls, "ADAPTIVE_CACHE_TEST_REDIS");
    }

    private RedisServer(List<String> extraArguments, IntFunction<List<String>> portArguments, TlsMaterial tls,
            String externalAddressVariable) {
        super("redis-server", INSTALL_HINT, externalAddressVariable);
        this.extraArguments = List.copyOf(extraArguments);
        this.portArguments = portArguments;
        this.tls = tls;
    }

    /**
     * A cluster node for test-servers' {@code RedisCluster}: its arguments depend on the port, which is only
     * chosen at start (and chosen again if a start attempt fails), such as the name of its
     * {@code nodes-PORT.conf}. Unlike other servers it never attaches to an external one. Public
     * because that cluster lives in another module (and package) than this class.
     * @param portArguments the further arguments for the port the node is launched on; called
     *        on every launch, so it must give the same answer for the same port (for {@link #restart()})
     * @return a server that is not started yet
     */
    public static RedisServer clusterNode(IntFunction<List<String>> portArguments) {
        return new RedisServer(List.of(), portArguments, null, NO_EXTERNAL_CLUSTER_NODE);
    }

    /**
     * A server with further configuration directives, such as an ACL user:
     * {@code withArguments("--user", "alice on >secret ~* &* +@all")}.
     * @param arguments {@code redis-server} arguments
     * @return a server that is not started yet
     */
    public static RedisServer withArguments(String... arguments) {
        return new RedisServer(List.of(arguments), null);
    }

    /**
     * A server that also listens for TLS on {@link #tlsPort()}, with the given certificate; the
     * plain port stays open for the test's own admin connection. Needs a redis-server built with
     * TLS (Debian's is).
     * @param tls the server's certificate and key
     * @return a server that is not started yet
     */
    public static RedisServer withTls(TlsMaterial tls) {
        return new RedisServer(List.of(), tls);
    }

    @Override
    protected List<String> arguments(int port) {
        List<String> arguments = new java.util.ArrayList<>(List.of("--bind", HOST, "--port", Integer.toString(port), "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes", "--loglevel", "warning"));
        if (tls != null) {
            if (tlsPort == 0) {
                tlsPort = freeLoopbackPort();
            }
            arguments.addAll(List.of("--tls-port", Integer.toString(tlsPort), "--tls-cert-file", tls.certificate().toString(),
                    "--tls-key-file", tls.privateKey().toString(), "--tls-ca-cert-file", tls.certificate().toString(),
                    "--tls-auth-clients", "no"));
        }
        arguments.addAll(extraArguments);
        arguments.addAll(portArguments.apply(port));
        return arguments;
    }

    /** The TLS port of a server made by {@link #withTls}. */
    public int tlsPort() {
        if (tls == null) {
            throw new IllegalStateException("This server was not started with TLS");
        }
        return tlsPort;
    }

    @Override
    protected boolean answers() throws IOException {
        return exchange("PING\r\n", reply -> reply.endsWith("\r\n")).startsWith("+PONG");
    }

    @Override
    protected long answeringPid() throws IOException {
        return Long.parseLong(field(exchange("INFO server\r\n", ServerProcess::isCompleteBulkReply), "process_id"));
    }

    /** The server's {@code connected_clients}, less the admin connection used to ask. */
    @Override
    public int connectedClients() {
        return Integer.parseInt(info("clients", "connected_clients")) - 1;
    }

    @Override
    public long connectionsReceived() {
        return Long.parseLong(info("stats", "total_connections_received"));
    }

    /** One field's value in an {@code INFO} reply. */
    private static String field(String infoReply, String field) {
        for (String line : infoReply.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalStateException("No " + field + " in INFO: " + infoReply);
    }

    /** The names (CLIENT SETNAME) of the connected clients that have one. */
    public java.util.List<String> clientNames() {
        try {
            String reply = exchange("CLIENT LIST\r\n", ServerProcess::isCompleteBulkReply);
            java.util.List<String> names = new java.util.ArrayList<>();
            for (String line : reply.split("\r?\n")) {
                for (String field : line.split(" ")) {
                    if (field.startsWith("name=") && field.length() > 5) {
                        names.add(field.substring(5));
                    }
                }
            }
            return names;
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot read CLIENT LIST from " + address(), ex);
        }
    }

    /** One field of {@code INFO section}. */
    public String info(String section, String field) {
        try {
            return field(exchange("INFO " + section + "\r\n", ServerProcess::isCompleteBulkReply), field);
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot read INFO from " + address(), ex);
        }
    }

    /**
     * Sends one command on the admin connection, as a RESP array so that arguments may hold
     * spaces or be empty, and reads its whole reply.
     * @param args the command and its arguments, such as {@code "CLUSTER", "NODES"}; ASCII only
     * @return the reply as text: a bulk or simple string as is, an integer's digits, {@code null}
     *         for a nil reply, and an array's elements (flattened) one per line
     * @throws IllegalStateException if the server replies with an error or cannot be reached
     */
    public String command(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("No command given");
        }
        StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            // exchange() sends ASCII, so a length counted in chars is the length in bytes.
            if (!StandardCharsets.US_ASCII.newEncoder().canEncode(arg)) {
                throw new IllegalArgumentException("Admin commands take ASCII arguments only: " + arg);
            }
            request.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        String reply;
        try {
            reply = exchange(request.toString(), RedisServer::isCompleteReply);
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot send " + String.join(" ", args) + " to " + address(), ex);
        }
        if (reply.startsWith("-")) {
            throw new IllegalStateException(address() + " replied to " + String.join(" ", args) + ": " + reply.trim());
        }
        List<String> values = new java.util.ArrayList<>();
        parseReply(reply.getBytes(StandardCharsets.UTF_8), 0, values);
        if (reply.startsWith("*")) {
            return String.join("\n", values);
        }
        return values.get(0);
    }

    /**
     * Whether {@code reply} holds one whole RESP value. Unlike {@link ServerProcess#isCompleteBulkReply}
     * it also waits for the rest of an array and stops at a nil bulk string, so that no part of a
     * reply is left on the admin connection to be mistaken for the next one.
     */
    private static boolean isCompleteReply(String reply) {
        return parseReply(reply.getBytes(StandardCharsets.UTF_8), 0, null) >= 0;
    }

    /**
     * Parses the RESP value at {@code from}, adding its text (or its elements' texts) to
     * {@code values} if that is not {@code null}.
     * @return the offset just past the value, or -1 if it is not whole yet
     */
    private static int parseReply(byte[] reply, int from, List<String> values) {
        int lineEnd = indexOfCrLf(reply, from);
        if (lineEnd < 0) {
            return -1;
        }
        char type = (char) reply[from];
        String header = new String(reply, from + 1, lineEnd - from - 1, StandardCharsets.UTF_8);
        int next = lineEnd + 2;
        switch (type) {
            case '$' -> {
                int length = Integer.parseInt(header);
                if (length < 0) {
                    add(values, null);
                    return next;
                }
                if (reply.length < next + length + 2) {
                    return -1;
                }
                add(values, new String(reply, next, length, StandardCharsets.UTF_8));
                return next + length + 2;
            }
            case '*' -> {
                int count = Integer.parseInt(header);
                for (int i = 0; i < count; i++) {
                    next = parseReply(reply, next, values);
                    if (next < 0) {
                        return -1;
                    }
                }
                return next;
            }
            default -> {
                // +simple, -error, :integer: the header line is the whole value.
                add(values, header);
                return next;
            }
        }
    }

    private static void add(List<String> values, String value) {
        if (values != null) {
            values.add(value);
        }
    }

    private static int indexOfCrLf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
