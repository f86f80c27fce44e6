package io.adaptivecache.testservers;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.adaptivecache.devservers.MemcachedServer;

/**
 * Starts one or more {@link MemcachedServer}s for a test class and stops them afterwards.
 * Register it on a {@code static} field.
 */
public final class MemcachedServerExtension extends ServersExtension<List<MemcachedServer>> {

    /** One server with the default 1 MiB item size limit. */
    public MemcachedServerExtension() {
        this(1, 1024 * 1024);
    }

    /**
     * Several servers, for consistent-hashing tests.
     * @param count how many
     * @param itemSizeMaxBytes each server's {@code -I}
     */
    public MemcachedServerExtension(int count, int itemSizeMaxBytes) {
        super(Stream.generate(() -> new MemcachedServer(itemSizeMaxBytes)).limit(count).toList(),
                all -> all.forEach(MemcachedServer::start), all -> all.forEach(MemcachedServer::stop));
    }

    /** The first (or only) server. */
    public MemcachedServer server() {
        return servers().get(0);
    }

    /** Every server, in start order. */
    @Override
    public List<MemcachedServer> servers() {
        return super.servers();
    }

    /** The servers as {@code host:port} separated by commas, optionally with weights ({@code host:port:weight}). */
    public String addresses(int... weights) {
        List<String> addresses = new ArrayList<>();
        List<MemcachedServer> servers = servers();
        for (int i = 0; i < servers.size(); i++) {
            addresses.add(servers.get(i).address() + (weights.length > i ? ":" + weights[i] : ""));
        }
        return addresses.stream().collect(Collectors.joining(","));
    }
}
