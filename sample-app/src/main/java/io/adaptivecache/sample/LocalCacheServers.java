package io.adaptivecache.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.testservers.MemcachedServer;
import io.adaptivecache.testservers.RedisServer;
import io.adaptivecache.testservers.ServerProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Dev-only convenience of the sample (never part of the starter): when nothing answers at the
 * configured Redis or memcached address, starts {@code redis-server} / {@code memcached} from
 * PATH on a free loopback port, points the application at it, says so in one log line, and
 * stops it when the application stops. A missing binary fails startup with the install command.
 */
class LocalCacheServers implements ApplicationListener<ApplicationEvent> {

    private static final Logger logger = LoggerFactory.getLogger(LocalCacheServers.class);

    private final List<ServerProcess> started = new ArrayList<>();

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            startWhereNothingAnswers(prepared.getEnvironment());
        }
        else if (event instanceof ContextClosedEvent) {
            stopAll();
        }
    }

    private void startWhereNothingAnswers(ConfigurableEnvironment environment) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        if (environment.getProperty("adaptive-cache.redis.enabled", Boolean.class, true)) {
            URI redis = URI.create(environment.getProperty("adaptive-cache.redis.url", "redis://localhost:6379"));
            if (!answers(redis.getHost(), redis.getPort() > 0 ? redis.getPort() : 6379)) {
                RedisServer server = start(new RedisServer());
                overrides.put("adaptive-cache.redis.url", "redis://" + server.address());
                logger.info("Nothing answered at {}; started a local redis-server on {} for the sample (stopped on shutdown)",
                        redis, server.address());
            }
        }
        if (environment.getProperty("adaptive-cache.memcached.enabled", Boolean.class, true)) {
            String servers = environment.getProperty("adaptive-cache.memcached.servers", "localhost:11211");
            String first = servers.split(",")[0].trim();
            String[] hostPort = first.split(":");
            if (!answers(hostPort[0], Integer.parseInt(hostPort[1]))) {
                MemcachedServer server = start(new MemcachedServer());
                overrides.put("adaptive-cache.memcached.servers", server.address());
                logger.info("Nothing answered at {}; started a local memcached on {} for the sample (stopped on shutdown)",
                        servers, server.address());
            }
        }
        if (!overrides.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource("sampleLocalCacheServers", overrides));
            Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "sample-local-cache-servers"));
        }
    }

    private <S extends ServerProcess> S start(S server) {
        server.start();
        synchronized (this.started) {
            this.started.add(server);
        }
        return server;
    }

    private void stopAll() {
        synchronized (this.started) {
            this.started.forEach(ServerProcess::stop);
            this.started.clear();
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
