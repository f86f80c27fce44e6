package io.adaptivecache.sample;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.adaptivecache.CacheException;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.strategy.SwitchReport;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample's HTTP API: a read-through cache ({@code /products}), the templates used directly
 * ({@code /cache/{backend}/{key}}), strategy figures and switches ({@code /strategies}) and a
 * bounded load generator ({@code /load}).
 */
@RestController
public class SampleController {

    private final ProductCatalog catalog;
    private final Map<String, ManagedCacheTemplate> templates;
    private final LoadGenerator load;
    private final @Nullable SampleNetwork network;

    /**
     * Creates the controller.
     * @param catalog the slow lookup behind the cache
     * @param templates the cache templates, by bean name
     * @param load the load generator
     * @param network the delaying proxies, when the sample's connections go through them
     */
    public SampleController(ProductCatalog catalog, Map<String, ManagedCacheTemplate> templates, LoadGenerator load,
            org.springframework.beans.factory.ObjectProvider<SampleNetwork> network) {
        this.catalog = catalog;
        this.templates = templates;
        this.load = load;
        this.network = network.getIfAvailable();
    }

    /** A product through the {@code products} cache, with the time it took and the slow lookups so far. */
    @GetMapping("/products/{id}")
    public Map<String, Object> product(@PathVariable long id) {
        long started = System.nanoTime();
        ProductCatalog.Product product = this.catalog.find(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("product", product);
        body.put("millis", (System.nanoTime() - started) / 1_000_000);
        body.put("slowLookups", this.catalog.lookups());
        return body;
    }

    /** Forgets a cached product. */
    @DeleteMapping("/products/{id}")
    public ResponseEntity<Void> forgetProduct(@PathVariable long id) {
        this.catalog.forget(id);
        return ResponseEntity.noContent().build();
    }

    /** Reads a key straight from a template. */
    @GetMapping("/cache/{backend}/{key}")
    public ResponseEntity<String> read(@PathVariable String backend, @PathVariable String key) {
        byte[] value = template(backend).get(kvKey(key));
        return value == null ? ResponseEntity.notFound().build() : ResponseEntity.ok(new String(value, StandardCharsets.UTF_8));
    }

    /** Writes a key straight to a template. */
    @PutMapping("/cache/{backend}/{key}")
    public ResponseEntity<Void> write(@PathVariable String backend, @PathVariable String key, @RequestBody String value,
            @RequestParam(defaultValue = "PT10M") Duration ttl) {
        template(backend).set(kvKey(key), value.getBytes(StandardCharsets.UTF_8), ttl);
        return ResponseEntity.noContent().build();
    }

    /** Deletes a key straight from a template. */
    @DeleteMapping("/cache/{backend}/{key}")
    public ResponseEntity<Void> delete(@PathVariable String backend, @PathVariable String key) {
        return template(backend).delete(kvKey(key)) ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }

    /** Each template's live strategy and figures. */
    @GetMapping("/strategies")
    public Map<String, Object> strategies() {
        Map<String, Object> body = new LinkedHashMap<>();
        this.templates.values().forEach(template -> {
            StrategyStats stats = template.stats().strategyStats();
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("strategy", stats.spec().toString());
            figures.put("openConnections", template.stats().openConnections());
            figures.put("inFlight", stats.inFlight());
            figures.put("waitingBorrowers", stats.waitingBorrowers());
            figures.put("borrows", stats.borrows());
            body.put(template.name(), figures);
        });
        return body;
    }

    /** Switches a template's strategy while it serves calls (the adaptive controller will do this by itself). */
    @PostMapping("/strategies/{backend}")
    public Map<String, Object> switchStrategy(@PathVariable String backend, @RequestParam StrategyType type,
            @RequestParam(required = false) @Nullable Integer connections,
            @RequestParam(defaultValue = "ROUND_ROBIN") SelectorType selector,
            @RequestParam(defaultValue = "8") int maxTotal, @RequestParam(defaultValue = "PT0.2S") Duration maxWait) {
        StrategySpec spec = switch (type) {
            case SINGLE -> StrategySpec.single();
            case MULTI -> connections == null ? StrategySpec.multi() : StrategySpec.multi(connections, selector);
            case POOLED -> StrategySpec.pooled(new PoolSettings(maxTotal, maxTotal, 0, maxWait));
        };
        SwitchReport report = template(backend).switchStrategy(spec);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", report.from().toString());
        body.put("to", report.to().toString());
        body.put("warmUpMillis", report.warmUp().toMillis());
        body.put("drainMillis", report.drain().toMillis());
        body.put("drainedCleanly", report.drainedCleanly());
        return body;
    }

    /** Runs a bounded load against a template and reports what it measured. */
    @PostMapping("/load")
    public LoadGenerator.Report load(@RequestParam(defaultValue = "redis") String backend,
            @RequestParam(defaultValue = "16") int threads, @RequestParam(defaultValue = "PT5S") Duration duration,
            @RequestParam(defaultValue = "100") int valueSize) throws InterruptedException {
        return this.load.run(template(backend), threads, duration, valueSize);
    }

    /** Starts a bounded load in the background (the page's start button). */
    @PostMapping("/load/start")
    public LoadGenerator.Status startLoad(@RequestParam(defaultValue = "redis") String backend,
            @RequestParam(defaultValue = "16") int threads, @RequestParam(defaultValue = "PT30S") Duration duration,
            @RequestParam(defaultValue = "100") int valueSize) {
        this.load.start(template(backend), threads, duration, valueSize);
        return this.load.status();
    }

    /** Stops the running load early. */
    @PostMapping("/load/stop")
    public LoadGenerator.Status stopLoad() {
        this.load.stop();
        return this.load.status();
    }

    /** Whether a load runs, and the last run's report. */
    @GetMapping("/load")
    public LoadGenerator.Status loadStatus() {
        return this.load.status();
    }

    /** The simulated network delay, in milliseconds each way. */
    @GetMapping("/delay")
    public Map<String, Object> delay() {
        return Map.of("proxied", this.network != null && this.network.isProxied(), "millisEachWay",
                this.network == null ? 0 : this.network.delayMillis());
    }

    /** Sets the simulated network delay each way (0 removes it); needs sample.delay-proxy.enabled. */
    @PostMapping("/delay")
    public Map<String, Object> setDelay(@RequestParam long millis) {
        if (this.network == null || !this.network.isProxied()) {
            throw new IllegalStateException("Connections do not go through the delaying proxy; set sample.delay-proxy.enabled=true");
        }
        if (millis < 0 || millis > 1000) {
            throw new IllegalArgumentException("millis must be between 0 and 1000, was " + millis);
        }
        this.network.delayMillis(millis);
        return delay();
    }

    private ManagedCacheTemplate template(String backend) {
        ManagedCacheTemplate template = this.templates.get(backend + "CacheTemplate");
        if (template == null) {
            throw new IllegalArgumentException("Unknown backend '" + backend + "'; this sample has "
                    + this.templates.values().stream().map(ManagedCacheTemplate::name).toList());
        }
        return template;
    }

    private static String kvKey(String key) {
        return "sample:kv:" + key;
    }

    @ExceptionHandler({ IllegalArgumentException.class, InvalidCacheInputException.class })
    ResponseEntity<Map<String, String>> badRequest(RuntimeException ex) {
        return ResponseEntity.badRequest().body(Map.of("error", ex.getMessage()));
    }

    @ExceptionHandler(IllegalStateException.class)
    ResponseEntity<Map<String, String>> conflict(IllegalStateException ex) {
        return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", ex.getMessage()));
    }

    @ExceptionHandler(CacheException.class)
    ResponseEntity<Map<String, String>> unavailable(CacheException ex) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", ex.getMessage()));
    }
}
