package io.adaptivecache.benchmarks.http.app;

import java.lang.management.ManagementFactory;
import java.util.Locale;

import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.redis.RedisTransport;
import io.adaptivecache.strategy.StrategySpec;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /bench/state}: what the harness reads between slices, never during one. One line of
 * {@code name=value} words: the JIT's total compilation time (the warm-up runs until it stops
 * growing), the catalog's loads (cache misses), the adaptive template's strategy and switches,
 * and Lettuce's transport. {@code ?gc=true} collects garbage first, so that one slice's garbage is
 * not collected during the next one.
 */
@RestController
class BenchStateController {

    private final ItemCatalog catalog;

    private final ObjectProvider<StrategySwitchers> switchers;

    BenchStateController(ItemCatalog catalog, ObjectProvider<StrategySwitchers> switchers) {
        this.catalog = catalog;
        this.switchers = switchers;
    }

    @GetMapping(path = "/bench/state", produces = MediaType.TEXT_PLAIN_VALUE)
    String state(@RequestParam(defaultValue = "false") boolean gc) {
        if (gc) {
            System.gc();
        }
        String strategy = "-";
        int switches = 0;
        StrategySwitchers all = this.switchers.getIfAvailable();
        if (all != null) {
            for (StrategySwitcher switcher : all.all()) {
                strategy = describe(switcher.state().active());
                switches = (int) switcher.state().history().stream()
                        .filter(event -> event.outcome() == SwitchEvent.Outcome.SWITCHED).count();
            }
        }
        return String.format(Locale.ROOT, "compile_ms=%d loads=%d strategy=%s switches=%d transport=%s",
                ManagementFactory.getCompilationMXBean().getTotalCompilationTime(), this.catalog.loads(), strategy, switches,
                RedisTransport.inUse().label());
    }

    private static String describe(StrategySpec strategy) {
        return switch (strategy.type()) {
            case SINGLE -> "SINGLE";
            case MULTI -> "MULTI(" + strategy.connections() + ")";
            case POOLED -> "POOLED(" + strategy.pool().maxTotal() + ")";
        };
    }
}
