package io.adaptivecache.devservers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code memcached} process on a free loopback port, UDP off. Set
 * {@code ADAPTIVE_CACHE_TEST_MEMCACHED=127.0.0.1:PORT} to use a running server instead (only
 * for single-server tests).
 */
public final class MemcachedServer extends ServerProcess {

    private final int itemSizeMaxBytes;
    private int memoryMegabytes = 64;
    private final String saslUser;
    private final String saslPassword;
    private java.nio.file.Path saslConfig;

    /** Creates a server with memcached's default 1 MiB item size limit, not started yet. */
    public MemcachedServer() {
        this(1024 * 1024);
    }

    /**
     * Creates a server that is not started yet.
     * @param itemSizeMaxBytes the server's {@code -I} item size limit
     */
    public MemcachedServer(int itemSizeMaxBytes) {
        this(itemSizeMaxBytes, null, null);
    }

    private MemcachedServer(int itemSizeMaxBytes, String saslUser, String saslPassword) {
        super("memcached", "sudo apt-get install -y memcached (Debian/Ubuntu) or brew install memcached (macOS)",
                "ADAPTIVE_CACHE_TEST_MEMCACHED");
        this.itemSizeMaxBytes = itemSizeMaxBytes;
        this.saslUser = saslUser;
        this.saslPassword = saslPassword;
    }

    /**
     * A server that requires SASL PLAIN authentication (binary protocol only, as memcached
     * refuses the text protocol with {@code -S}), with one user in a Cyrus sasldb made by
     * {@code saslpasswd2}. Needs Debian's {@code sasl2-bin} and {@code libsasl2-modules}. The
     * admin helpers ({@link #stat}) do not work on such a server.
     * @param user the user
     * @param password the password
     * @return a server that is not started yet
     */
    public static MemcachedServer withSasl(String user, String password) {
        return new MemcachedServer(1024 * 1024, user, password);
    }

    /**
     * Sets the server's memory for items ({@code -m}), 64 MiB unless set; before {@link #start()}.
     * @param megabytes the memory in MiB
     * @return this server
     */
    public MemcachedServer withMemoryMegabytes(int megabytes) {
        if (megabytes < 1) {
            throw new IllegalArgumentException("memory must be at least 1 MiB, was " + megabytes);
        }
        this.memoryMegabytes = megabytes;
        return this;
    }

    @Override
    protected java.util.Map<String, String> environment() {
        if (saslUser == null) {
            return java.util.Map.of();
        }
        return java.util.Map.of("SASL_CONF_PATH", saslConfig().toString());
    }

    private synchronized java.nio.file.Path saslConfig() {
        if (saslConfig != null) {
            return saslConfig;
        }
        String saslpasswd = findOnPath("saslpasswd2");
        if (saslpasswd == null) {
            throw new IllegalStateException("saslpasswd2 was not found; install it with: sudo apt-get install -y sasl2-bin libsasl2-modules");
        }
        try {
            java.nio.file.Path directory = java.nio.file.Files.createTempDirectory("memcached-sasl-");
            java.nio.file.Path database = directory.resolve("memcached.sasldb");
            Process process = new ProcessBuilder(saslpasswd, "-p", "-c", "-a", "memcached", "-f", database.toString(), saslUser)
                    .redirectErrorStream(true).start();
            process.getOutputStream().write(saslPassword.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("saslpasswd2 failed: " + output);
            }
            java.nio.file.Files.writeString(directory.resolve("memcached.conf"),
                    "mech_list: cram-md5 plain\nsasldb_path: " + database + "\n");
            for (java.nio.file.Path file : List.of(database, directory.resolve("memcached.conf"), directory)) {
                file.toFile().deleteOnExit();
            }
            saslConfig = directory;
            return directory;
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot write a SASL configuration", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running saslpasswd2", ex);
        }
    }

    @Override
    protected List<String> arguments(int port) {
        List<String> arguments = new ArrayList<>(List.of("-l", HOST, "-p", Integer.toString(port), "-U", "0", "-t", "2",
                "-m", Integer.toString(memoryMegabytes), "-I", Integer.toString(itemSizeMaxBytes), "-c", "1024"));
        // memcached refuses to run as root unless told which user to run as.
        arguments.addAll(List.of("-u", System.getProperty("user.name")));
        if (saslUser != null) {
            arguments.add("-S");
        }
        return arguments;
    }

    @Override
    protected boolean answers() throws IOException {
        if (saslUser != null) {
            // Every command needs authentication here; accepting a connection is the liveness we can see.
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(HOST, port()), 1000);
                return true;
            }
        }
        return exchange("version\r\n", reply -> reply.endsWith("\r\n")).startsWith("VERSION");
    }

    @Override
    protected long answeringPid() {
        // With SASL every command needs authentication, so the server cannot be asked.
        return saslUser != null ? -1 : Long.parseLong(stat("pid"));
    }

    /** The server's {@code curr_connections}, less the admin connection used to ask. */
    @Override
    public int connectedClients() {
        return Integer.parseInt(stat("curr_connections")) - 1;
    }

    @Override
    public long connectionsReceived() {
        return Long.parseLong(stat("total_connections"));
    }

    /** The server's {@code total_items} (items ever stored), for checking where keys landed. */
    public long totalItems() {
        return Long.parseLong(stat("total_items"));
    }

    /**
     * The value the server holds for a key, read with a text-protocol {@code get} on the admin
     * connection (independently of any client under test), as {@link RedisServer#command} reads
     * Redis. Not for a server with SASL, which answers no command before authentication.
     * @param key the key
     * @return the value as ASCII text, or {@code null} when the server holds none
     */
    public String get(String key) {
        try {
            String[] lines = exchange("get " + key + "\r\n", text -> text.endsWith("END\r\n")).split("\r\n");
            return lines[0].startsWith("VALUE ") ? lines[1] : null;
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot read " + key + " from memcached at " + address(), ex);
        }
    }

    /** One value of {@code stats}. */
    public String stat(String name) {
        try {
            String reply = exchange("stats\r\n", text -> text.endsWith("END\r\n"));
            for (String line : reply.split("\r\n")) {
                String[] parts = line.split(" ");
                if (parts.length == 3 && parts[1].equals(name)) {
                    return parts[2];
                }
            }
            throw new IllegalStateException("No stat " + name + " in: " + reply);
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot read stats from " + address(), ex);
        }
    }
}
