package io.adaptivecache.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Dev-only convenience of the sample (never part of the starter). When nothing answers at the
 * configured Redis or memcached address it starts a local server: {@code redis-server} /
 * {@code memcached} from PATH, or, without the binaries, an embedded Redis (a real redis-server
 * shipped in a jar) and no memcached (the sample then runs Redis-only). Each fallback is one log
 * line. With {@code sample.delay-proxy.enabled}, connections go through {@link DelayingProxy}s
 * so that the page can add a network delay. Everything is stopped when the application stops.
 * Does nothing while the build processes the sample ahead of time.
 */
public class LocalCacheServers implements ApplicationListener<ApplicationEvent>, org.springframework.core.Ordered {

    private static final Logger logger = LoggerFactory.getLogger(LocalCacheServers.class);

    private final List<AutoCloseable> started = new ArrayList<>();
    private final Map<String, DelayingProxy> proxies = new LinkedHashMap<>();

    /** After Boot's logging system is set up, so that the one line per fallback is not lost. */
    @Override
    public int getOrder() {
        return org.springframework.boot.context.logging.LoggingApplicationListener.DEFAULT_ORDER + 1;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        // The build's ahead-of-time processing (spring-boot:process-aot) runs the application only up to its
        // bean definitions and never closes the context: servers started here would outlive the build, and
        // probing the configured address would reach whatever happens to listen on the build machine. Spring
        // sets this property for the duration of the processing (AbstractAotProcessor.process).
        if (Boolean.getBoolean("spring.aot.processing")) {
            return;
        }
        if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            prepare(prepared.getEnvironment());
        }
        else if (event instanceof ApplicationPreparedEvent prepared) {
            prepared.getApplicationContext().getBeanFactory().registerSingleton("sampleNetwork", new SampleNetwork(this.proxies));
        }
        else if (event instanceof ContextClosedEvent) {
            stopAll();
        }
    }

    private void prepare(ConfigurableEnvironment environment) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        boolean proxied = environment.getProperty("sample.delay-proxy.enabled", Boolean.class, false);
        if (environment.getProperty("adaptive-cache.redis.enabled", Boolean.class, true)) {
            URI configured = URI.create(environment.getProperty("adaptive-cache.redis.url", "redis://localhost:6379"));
            String host = configured.getHost();
            int port = configured.getPort() > 0 ? configured.getPort() : 6379;
            if (!answers(host, port)) {
                port = startRedis(configured.toString());
                host = "127.0.0.1";
            }
            if (proxied) {
                port = proxy("redis", host, port);
                host = "127.0.0.1";
            }
            overrides.put("adaptive-cache.redis.url", "redis://" + host + ":" + port);
        }
        if (environment.getProperty("adaptive-cache.memcached.enabled", Boolean.class, true)) {
            String servers = environment.getProperty("adaptive-cache.memcached.servers", "localhost:11211");
            String[] hostPort = servers.split(",")[0].trim().split(":");
            String host = hostPort[0];
            int port = Integer.parseInt(hostPort[1]);
            if (!answers(host, port)) {
                Integer local = startMemcached(servers);
                if (local == null) {
                    local = startEmbeddedMemcached(servers);
                    // jmemcached speaks the text protocol soundly; its binary incr crashes the connection.
                    overrides.put("adaptive-cache.memcached.protocol", "text");
                }
                if (local == null) {
                    overrides.put("adaptive-cache.memcached.enabled", "false");
                }
                else {
                    host = "127.0.0.1";
                    port = local;
                }
            }
            if (!overrides.containsKey("adaptive-cache.memcached.enabled")) {
                if (proxied) {
                    port = proxy("memcached", host, port);
                    host = "127.0.0.1";
                }
                overrides.put("adaptive-cache.memcached.servers", host + ":" + port);
            }
        }
        environment.getPropertySources().addFirst(new MapPropertySource("sampleLocalCacheServers", overrides));
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "sample-local-cache-servers"));
    }

    private int startRedis(String configured) {
        try {
            return startFromPath(new RedisServer(), "redis-server", configured);
        }
        catch (IllegalStateException missingBinary) {
            int port = freePort();
            try {
                // The full command line: the library's builder detects the platform by running uname from PATH.
                redis.embedded.RedisServer embedded = new redis.embedded.RedisServer(port, List.of(
                        bundledRedisServer().getAbsolutePath(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--save", "", "--appendonly", "no"), false);
                embedded.start();
                this.started.add(embedded::stop);
                logger.info("Nothing answered at {} and no redis-server is on PATH; started the embedded Redis (a redis-server "
                        + "binary shipped in a jar) on 127.0.0.1:{} for the sample (stopped on shutdown)", configured, port);
                return port;
            }
            catch (IOException ex) {
                throw new IllegalStateException("Cannot start the embedded Redis: " + ex.getMessage() + ". "
                        + missingBinary.getMessage(), ex);
            }
        }
    }

    /**
     * Extracts the redis-server binary that embedded-redis ships for this platform, chosen from
     * Java's own os.name and os.arch: the library's detection runs {@code uname} from PATH, which
     * a machine with only a JDK (or an empty PATH) may not offer.
     */
    private static java.io.File bundledRedisServer() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(java.util.Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        String resource;
        if (os.contains("win")) {
            resource = "redis-server-5.0.14.1-windows-amd64.exe";
        }
        else if (os.contains("mac")) {
            resource = arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        else if (arch.contains("64") && !arm) {
            resource = "redis-server-6.2.6-v5-linux-amd64";
        }
        else if (!arm) {
            resource = "redis-server-6.2.7-linux-386";
        }
        else {
            throw new IOException("embedded-redis ships no redis-server for " + os + "/" + arch);
        }
        java.nio.file.Path binary = java.nio.file.Files.createTempFile("sample-redis-server-", resource.endsWith(".exe") ? ".exe" : "");
        binary.toFile().deleteOnExit();
        try (java.io.InputStream in = redis.embedded.RedisServer.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IOException("embedded-redis has no " + resource);
            }
            java.nio.file.Files.copy(in, binary, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        if (!binary.toFile().setExecutable(true)) {
            throw new IOException("Cannot make " + binary + " executable");
        }
        return binary.toFile();
    }

    /** The port of a local memcached, or null when there is none to start (no binary on PATH). */
    private @Nullable Integer startMemcached(String configured) {
        try {
            return startFromPath(new MemcachedServer(), "memcached", configured);
        }
        catch (IllegalStateException missingBinary) {
            return null;
        }
    }

    /**
     * Starts a server from PATH, to be stopped with the others, and says so in the one log line of
     * this fallback.
     * @param server the server, not started yet
     * @param binary the binary's name, for the log line
     * @param configured the address where nothing answered, for the log line
     * @return the port it listens on
     * @throws IllegalStateException if the binary is not on PATH or the server did not start; the
     * caller falls back to what it has instead
     */
    private int startFromPath(ServerProcess server, String binary, String configured) {
        server.start();
        this.started.add(server);
        logger.info("Nothing answered at {}; started a local {} from PATH on {} for the sample (stopped on shutdown)",
                configured, binary, server.address());
        return server.port();
    }

    /** jmemcached, a pure-Java memcached server; null (and one warning: Redis-only) if it cannot start. */
    private @Nullable Integer startEmbeddedMemcached(String configured) {
        int port = freePort();
        try {
            com.thimbleware.jmemcached.storage.CacheStorage<com.thimbleware.jmemcached.Key, com.thimbleware.jmemcached.LocalCacheElement> storage =
                    com.thimbleware.jmemcached.storage.hash.ConcurrentLinkedHashMap.create(
                            com.thimbleware.jmemcached.storage.hash.ConcurrentLinkedHashMap.EvictionPolicy.LRU, 100_000, 64L * 1024 * 1024);
            com.thimbleware.jmemcached.MemCacheDaemon<com.thimbleware.jmemcached.LocalCacheElement> daemon =
                    new com.thimbleware.jmemcached.MemCacheDaemon<>();
            daemon.setCache(new com.thimbleware.jmemcached.CacheImpl(storage));
            daemon.setBinary(false);
            daemon.setAddr(new InetSocketAddress("127.0.0.1", port));
            daemon.start();
            this.started.add(daemon::stop);
            logger.info("Nothing answered at {} and no memcached is on PATH; started the embedded jmemcached (pure Java, text "
                    + "protocol) on 127.0.0.1:{} for the sample (stopped on shutdown)", configured, port);
            return port;
        }
        catch (RuntimeException | LinkageError ex) {
            logger.warn("Nothing answered at {}, no memcached is on PATH and the embedded jmemcached did not start ({}): the sample "
                    + "runs Redis-only (install memcached, e.g. sudo apt-get install -y memcached, to see both backends)",
                    configured, ex.toString());
            return null;
        }
    }

    private int proxy(String backend, String host, int port) {
        try {
            DelayingProxy proxy = new DelayingProxy(host, port);
            this.proxies.put(backend, proxy);
            this.started.add(proxy);
            return proxy.port();
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot start the sample's delaying proxy for " + backend, ex);
        }
    }

    private synchronized void stopAll() {
        for (AutoCloseable server : this.started) {
            try {
                server.close();
            }
            catch (Exception ex) {
                logger.debug("Stopping {} failed", server, ex);
            }
        }
        this.started.clear();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException("No free loopback port", ex);
        }
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 300);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }
}
