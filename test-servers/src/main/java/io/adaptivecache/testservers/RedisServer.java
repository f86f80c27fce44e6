package io.adaptivecache.testservers;

import java.io.IOException;
import java.util.List;

/**
 * A {@code redis-server} process on a free loopback port, with no persistence. Set
 * {@code ADAPTIVE_CACHE_TEST_REDIS=127.0.0.1:PORT} to use a running server instead.
 */
public final class RedisServer extends ServerProcess {

    private final List<String> extraArguments;
    private final TlsMaterial tls;
    private int tlsPort;

    /** Creates a server that is not started yet. */
    public RedisServer() {
        this(List.of(), null);
    }

    private RedisServer(List<String> extraArguments, TlsMaterial tls) {
        super("redis-server", "sudo apt-get install -y redis-server (Debian/Ubuntu) or brew install redis (macOS)",
                "ADAPTIVE_CACHE_TEST_REDIS");
        this.extraArguments = List.copyOf(extraArguments);
        this.tls = tls;
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

    /** The server's {@code connected_clients}, less the admin connection used to ask. */
    public int connectedClients() {
        return Integer.parseInt(info("clients", "connected_clients")) - 1;
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
            String reply = exchange("INFO " + section + "\r\n", ServerProcess::isCompleteBulkReply);
            for (String line : reply.split("\r\n")) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1).trim();
                }
            }
            throw new IllegalStateException("No " + field + " in INFO " + section + ": " + reply);
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot read INFO from " + address(), ex);
        }
    }
}
