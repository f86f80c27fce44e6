package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.ProbeJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * spymemcached's chatter at every client's start and stop stays out of an application's INFO log:
 * a template is started, switched and closed in a JVM of its own whose SLF4J writes DEBUG and above
 * (slf4j-simple reads its level once, at start, so only a new JVM can show what INFO would print).
 * spymemcached names its loggers after the logging class, which for the templates' own subclass of
 * its connection is in {@code io.adaptivecache.memcached}, so both prefixes are read.
 */
class SpymemcachedLogIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Test
    void clientsStartingAndStoppingShouldLogAtDebugNotInfoWhileWarningsStayWarnings() throws Exception {
        String output = probe();
        List<String> spymemcachedLines = output.lines()
                .filter(line -> line.contains(" net.spy.") || line.contains(" " + SpymemcachedIoThread.class.getName() + " ")).toList();

        assertThat(output).contains("logger=" + QuietSpymemcachedLogger.class.getName());
        assertThat(spymemcachedLines).as("spymemcached's lines at INFO").noneMatch(line -> line.contains(" INFO "));
        // The lines are there (so the capture sees spymemcached's logging), at DEBUG.
        assertThat(spymemcachedLines).as(output).anyMatch(line -> line.contains(" DEBUG ") && line.contains("to connect queue"))
                .anyMatch(line -> line.contains(" DEBUG ") && line.contains("Shut down memcached client"));
        assertThat(spymemcachedLines).anyMatch(line -> line.contains(" WARN ") && line.contains(SpymemcachedLogProbe.WARNING));
    }

    private static String probe() throws Exception {
        return ProbeJvm.run(SpymemcachedLogProbe.class, Duration.ofSeconds(60), List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug"),
                memcached.addresses());
    }
}
