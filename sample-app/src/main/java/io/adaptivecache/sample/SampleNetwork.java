package io.adaptivecache.sample;

import java.util.Map;

import io.adaptivecache.devservers.DelayingProxy;

/**
 * The delaying proxies the sample routes its cache connections through (when
 * {@code sample.delay-proxy.enabled} is true), by backend, so the page can add or remove a
 * simulated network round trip.
 */
public final class SampleNetwork {

    private final Map<String, DelayingProxy> proxies;

    SampleNetwork(Map<String, DelayingProxy> proxies) {
        this.proxies = Map.copyOf(proxies);
    }

    /**
     * Whether connections go through the proxies.
     * @return {@code true} if there are any
     */
    public boolean isProxied() {
        return !this.proxies.isEmpty();
    }

    /**
     * Sets the delay added in each direction, for every backend.
     * @param millis milliseconds each way, 0 to remove it
     */
    public void delayMillis(long millis) {
        this.proxies.values().forEach(proxy -> proxy.delayMillis(millis));
    }

    /**
     * The delay added in each direction.
     * @return milliseconds each way
     */
    public long delayMillis() {
        return this.proxies.values().stream().mapToLong(DelayingProxy::delayMillis).max().orElse(0);
    }
}
