package io.adaptivecache.integration;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter does not bring XMemcached, and an application on it needs none for the default
 * driver: on this module's class path less the XMemcached jar (which it holds only for the
 * XMemcached credential test), an application starts its memcached template on spymemcached and
 * serves template calls and Spring's cache, and {@code driver=xmemcached} fails its startup
 * naming the property and the dependency to add.
 */
class StarterWithoutXMemcachedIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Test
    void theDefaultDriverShouldServeWithoutXMemcachedAndTheXMemcachedDriverShouldNameTheDependencyToAdd() throws Exception {
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutXMemcached = classPath.stream().filter(entry -> !new File(entry).getName().startsWith("xmemcached-"))
                .toList();
        assertThat(classPath.size() - withoutXMemcached.size()).as("XMemcached jars left out of the probe's class path").isEqualTo(1);

        String output = run(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                String.join(File.pathSeparator, withoutXMemcached), StarterWithoutXMemcachedProbe.class.getName(),
                memcached.addresses()));

        assertThat(output).contains("xmemcached=absent").contains("served=spymemcached").doesNotContain("started=xmemcached")
                .contains("refused=").contains("adaptive-cache.memcached.driver").contains("com.googlecode.xmemcached:xmemcached")
                .contains("add that dependency").doesNotContain("failed=");
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("starter-without-xmemcached", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean ended = process.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(ended).as("the probe JVM ends within 120 s; its output:%n%s", text).isTrue();
            assertThat(process.exitValue()).as("the probe's exit code; its output:%n%s", text).isZero();
            return text;
        }
        finally {
            Files.deleteIfExists(output);
        }
    }
}
