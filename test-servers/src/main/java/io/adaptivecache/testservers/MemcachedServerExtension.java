package io.adaptivecache.testservers;

import io.adaptivecache.devservers.MemcachedServer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one or more {@link MemcachedServer}s for a test class and stops them afterwards.
 * Register it on a {@code static} field.
 */
public final class MemcachedServerExtension implements BeforeAllCallback, AfterAllCallback {

    private final List<MemcachedServer> servers = new ArrayList<>();

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
        for (int i = 0; i < count; i++) {
            servers.add(new MemcachedServer(itemSizeMaxBytes));
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        servers.forEach(MemcachedServer::start);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        servers.forEach(MemcachedServer::stop);
    }

    /** The first (or only) server. */
    public MemcachedServer server() {
        return servers.get(0);
    }

    /** Every server, in start order. */
    public List<MemcachedServer> servers() {
        return servers;
    }

    /** The servers as {@code host:port} separated by commas, optionally with weights ({@code host:port:weight}). */
    public String addresses(int... weights) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            addresses.add(servers.get(i).address() + (weights.length > i ? ":" + weights[i] : ""));
        }
        return addresses.stream().collect(Collectors.joining(","));
    }
}
