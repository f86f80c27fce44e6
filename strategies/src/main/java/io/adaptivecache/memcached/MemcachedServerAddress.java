package io.adaptivecache.memcached;

import java.util.ArrayList;
import java.util.List;

/**
 * One memcached server and its weight on the consistent-hash ring.
 *
 * @param host host name or IP literal (IP literals keep the ring compatible with libketama)
 * @param port TCP port
 * @param weight relative share of keys, at least 1
 */
public record MemcachedServerAddress(String host, int port, int weight) {

    /**
     * Checks the parts.
     * @param host host name or IP literal
     * @param port TCP port
     * @param weight relative share of keys
     */
    public MemcachedServerAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("A memcached server needs a host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("A memcached port must be between 1 and 65535, was " + port);
        }
        if (weight < 1) {
            throw new IllegalArgumentException("A memcached server weight must be at least 1, was " + weight);
        }
    }

    /**
     * Parses {@code host:port[:weight]} entries separated by commas or whitespace, for example
     * {@code 10.0.0.1:11211:3, 10.0.0.2:11211}.
     * @param servers the list
     * @return the addresses, in order
     * @throws IllegalArgumentException naming the malformed entry
     */
    public static List<MemcachedServerAddress> parseList(String servers) {
        if (servers == null || servers.isBlank()) {
            throw new IllegalArgumentException("No memcached servers given: expected host:port[:weight], comma-separated");
        }
        List<MemcachedServerAddress> addresses = new ArrayList<>();
        for (String entry : servers.trim().split("[,\\s]+")) {
            addresses.add(parse(entry));
        }
        return addresses;
    }

    /**
     * Parses one {@code host:port[:weight]}.
     * @param entry the entry
     * @return the address
     * @throws IllegalArgumentException if the entry is malformed
     */
    public static MemcachedServerAddress parse(String entry) {
        String[] parts = entry.split(":");
        try {
            if (parts.length == 2) {
                return new MemcachedServerAddress(parts[0], Integer.parseInt(parts[1]), 1);
            }
            if (parts.length == 3) {
                return new MemcachedServerAddress(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
            }
        }
        catch (NumberFormatException ex) {
            // reported below with the whole entry
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("Malformed memcached server '" + entry + "': " + ex.getMessage(), ex);
        }
        throw new IllegalArgumentException("Malformed memcached server '" + entry
                + "': expected host:port or host:port:weight with numeric port and weight");
    }

    @Override
    public String toString() {
        return host + ":" + port + (weight != 1 ? ":" + weight : "");
    }
}
