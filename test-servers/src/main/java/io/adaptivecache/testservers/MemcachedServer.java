package io.adaptivecache.testservers;

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

    /** Creates a server with memcached's default 1 MiB item size limit, not started yet. */
    public MemcachedServer() {
        this(1024 * 1024);
    }

    /**
     * Creates a server that is not started yet.
     * @param itemSizeMaxBytes the server's {@code -I} item size limit
     */
    public MemcachedServer(int itemSizeMaxBytes) {
        super("memcached", "sudo apt-get install -y memcached (Debian/Ubuntu) or brew install memcached (macOS)",
                "ADAPTIVE_CACHE_TEST_MEMCACHED");
        this.itemSizeMaxBytes = itemSizeMaxBytes;
    }

    @Override
    protected List<String> arguments(int port) {
        List<String> arguments = new ArrayList<>(List.of("-l", HOST, "-p", Integer.toString(port), "-U", "0", "-t", "2",
                "-m", "64", "-I", Integer.toString(itemSizeMaxBytes), "-c", "1024"));
        // memcached refuses to run as root unless told which user to run as.
        arguments.addAll(List.of("-u", System.getProperty("user.name")));
        return arguments;
    }

    @Override
    protected boolean answers() throws IOException {
        return exchange("version\r\n", reply -> reply.endsWith("\r\n")).startsWith("VERSION");
    }

    /** The server's {@code curr_connections}, less the admin connection used to ask. */
    public int currentConnections() {
        return Integer.parseInt(stat("curr_connections")) - 1;
    }

    /** The server's {@code total_items} (items ever stored), for checking where keys landed. */
    public long totalItems() {
        return Long.parseLong(stat("total_items"));
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
