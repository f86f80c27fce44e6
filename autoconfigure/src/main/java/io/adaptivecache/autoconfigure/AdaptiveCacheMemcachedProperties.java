package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.memcached.MemcachedProtocol;
import io.adaptivecache.memcached.MemcachedServerAddress;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Properties of the memcached cache template, over spymemcached or XMemcached; one connection of
 * a strategy is one client of the driver ({@code adaptive-cache.memcached}).
 */
@ConfigurationProperties("adaptive-cache.memcached")
public class AdaptiveCacheMemcachedProperties extends AdaptiveCacheTemplateProperties {

    /** Properties of the memcached template, at their defaults until bound. */
    public AdaptiveCacheMemcachedProperties() {
        super("memcached");
    }

    /** Client library of every strategy: spymemcached, or xmemcached (faster here at 8 or more callers on a short round trip; async calls complete before they return; no SASL). Needs its jar: the starter brings spymemcached; for xmemcached add com.googlecode.xmemcached:xmemcached. */
    private io.adaptivecache.memcached.MemcachedDriver driver = io.adaptivecache.memcached.MemcachedDriver.SPYMEMCACHED;

    /** Servers as host:port or host:port:weight; keys are spread by ketama consistent hashing, in proportion to the weights. No default: the memcached template exists only when this is set or a MemcachedConnectionDetails bean exists (a @ServiceConnection container, Docker Compose). */
    private List<String> servers = new ArrayList<>();

    /** Wire protocol. Binary is faster here and needed for SASL; over text, any server error reply makes spymemcached reconnect. */
    private MemcachedProtocol protocol = MemcachedProtocol.BINARY;



    /** Operation timeout. */
    private Duration operationTimeout = Duration.ofSeconds(1);


    /** Maximum operations waiting per client; more fail at once instead of blocking the caller. spymemcached only: on XMemcached each caller waits for its own reply. */
    private int operationQueueSize = 8192;

    /** The servers' item size limit (memcached -I); values are limited to this less room for the item header. */
    private DataSize itemSizeMax = DataSize.ofMegabytes(1);

    @Override
    void validateBackend(String prefix) {
        if (this.servers != null && !this.servers.isEmpty()) {
            // Unset, the servers come from a MemcachedConnectionDetails bean, or there is no memcached template.
            serverAddresses(prefix);
        }
        PropertyRules.present(prefix + ".protocol", this.protocol, "binary or text");
        PropertyRules.present(prefix + ".driver", this.driver, "spymemcached or xmemcached");
        PropertyRules.positive(prefix + ".operation-timeout", this.operationTimeout);
        // spymemcached counts its reconnect delay in whole seconds.
        Duration maxReconnectDelay = getMaxReconnectDelay();
        if (maxReconnectDelay == null || maxReconnectDelay.getSeconds() < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-reconnect-delay", maxReconnectDelay,
                    "it must be at least 1s");
        }
        PropertyRules.atLeast(prefix + ".operation-queue-size", this.operationQueueSize, 1);
        PropertyRules.size(prefix + ".item-size-max", this.itemSizeMax, DataSize.ofKilobytes(1), "1KB");
        if (getUsername() != null) {
            if (!this.protocol.supportsSasl()) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".protocol", this.protocol,
                        "SASL authentication (" + prefix + ".username) needs the binary protocol");
            }
            if (!this.driver.supportsSasl()) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".driver", this.driver.name().toLowerCase(java.util.Locale.ROOT),
                        "SASL authentication (" + prefix + ".username) needs the spymemcached driver");
            }
        }
    }

    /**
     * The servers, parsed.
     * @param prefix this section's prefix, for the message naming an entry at fault
     * @return the addresses, in order
     * @throws InvalidAdaptiveCachePropertyException if the list is empty or an entry is malformed
     */
    List<MemcachedServerAddress> serverAddresses(String prefix) {
        if (this.servers == null || this.servers.isEmpty()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".servers", this.servers,
                    "it must list at least one server as host:port or host:port:weight");
        }
        List<MemcachedServerAddress> addresses = new ArrayList<>();
        for (int i = 0; i < this.servers.size(); i++) {
            String entry = this.servers.get(i).trim();
            try {
                addresses.add(MemcachedServerAddress.parse(entry));
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".servers[" + i + "]", entry,
                        "it must be host:port or host:port:weight with a port from 1 to 65535 and a weight of at least 1");
            }
        }
        return addresses;
    }

    public List<String> getServers() {
        return this.servers;
    }

    public void setServers(List<String> servers) {
        this.servers = servers;
    }

    public MemcachedProtocol getProtocol() {
        return this.protocol;
    }

    public void setProtocol(MemcachedProtocol protocol) {
        this.protocol = protocol;
    }

    public Duration getOperationTimeout() {
        return this.operationTimeout;
    }

    public void setOperationTimeout(Duration operationTimeout) {
        this.operationTimeout = operationTimeout;
    }

    public io.adaptivecache.memcached.MemcachedDriver getDriver() {
        return this.driver;
    }

    public void setDriver(io.adaptivecache.memcached.MemcachedDriver driver) {
        this.driver = driver;
    }

    public int getOperationQueueSize() {
        return this.operationQueueSize;
    }

    public void setOperationQueueSize(int operationQueueSize) {
        this.operationQueueSize = operationQueueSize;
    }

    public DataSize getItemSizeMax() {
        return this.itemSizeMax;
    }

    public void setItemSizeMax(DataSize itemSizeMax) {
        this.itemSizeMax = itemSizeMax;
    }
}
