package io.adaptivecache.integration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.testservers.ProbeJvm;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Run by {@link StarterWithoutXMemcachedIntegrationTests} in a JVM whose class path is the
 * starter's without XMemcached: starts {@link CachingTestApplication} on memcached with the
 * default driver, serves a template call and a cached method, then starts it again with
 * {@code driver=xmemcached}. Prints one line per finding; exit 0 when every step went as
 * expected, 1 otherwise (with the failure printed).
 */
public final class StarterWithoutXMemcachedProbe {

    private StarterWithoutXMemcachedProbe() {
    }

    /**
     * @param args the memcached server's {@code host:port}
     */
    public static void main(String[] args) {
        ProbeJvm.exit(() -> probe(args[0]));
    }

    private static void probe(String servers) {
        if (!ProbeJvm.absent("xmemcached", "net.rubyeye.xmemcached.MemcachedClient")) {
            return;
        }
        try (ConfigurableApplicationContext app = start(servers)) {
            CacheTemplate template = app.getBean("memcachedCacheTemplate", CacheTemplate.class);
            template.set("starter:no-xmemcached", "1".getBytes(StandardCharsets.US_ASCII), Duration.ofMinutes(1));
            byte[] read = template.get("starter:no-xmemcached");
            if (read == null || !new String(read, StandardCharsets.US_ASCII).equals("1")) {
                throw new AssertionError("the template read back " + (read == null ? "nothing" : new String(read, StandardCharsets.US_ASCII)));
            }
            CachingTestApplication.PriceService prices = app.getBean(CachingTestApplication.PriceService.class);
            prices.price("no-xmemcached");
            prices.price("no-xmemcached");
            if (prices.computations() != 1) {
                throw new AssertionError("the second call reached the service: " + prices.computations() + " computations");
            }
            System.out.println("served=spymemcached");
        }
        try (ConfigurableApplicationContext app = start(servers, "adaptive-cache.memcached.driver=xmemcached")) {
            System.out.println("started=xmemcached");
        }
        catch (RuntimeException refused) {
            List<String> causes = new ArrayList<>();
            for (Throwable cause = refused; cause != null; cause = cause.getCause()) {
                causes.add(String.valueOf(cause.getMessage()));
            }
            System.out.println("refused=" + String.join(" | ", causes));
        }
    }

    private static ConfigurableApplicationContext start(String servers, String... more) {
        // Redis off, and the cache the sample's application.yml puts on Redis moved to memcached.
        List<String> properties = new ArrayList<>(List.of("spring.main.banner-mode=off", "adaptive-cache.redis.enabled=false",
                "adaptive-cache.cache.backends.products=memcached", "adaptive-cache.memcached.servers=" + servers,
                "adaptive-cache.memcached.connect-timeout=2s"));
        properties.addAll(List.of(more));
        SpringApplicationBuilder builder = new SpringApplicationBuilder(CachingTestApplication.class).web(WebApplicationType.NONE);
        // The sample's dev-only listener (registered for every application on this class path) may start servers of its own.
        builder.application().setListeners(builder.application().getListeners().stream()
                .filter(listener -> !listener.getClass().getName().equals("io.adaptivecache.sample.LocalCacheServers")).toList());
        // As command-line arguments, so that they win over the sample's application.yml.
        return builder.run(properties.stream().map(property -> "--" + property).toArray(String[]::new));
    }
}
