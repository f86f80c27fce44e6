package io.adaptivecache.memcached;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * XMemcached is optional: a spymemcached template is built, serves every command through every
 * strategy, and switches between them in a JVM whose class path lacks the XMemcached jar (this
 * module's test class path less that jar), and the XMemcached driver asked for there is refused
 * naming the dependency to add.
 */
class MemcachedWithoutXMemcachedIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @Test
    void aSpymemcachedTemplateShouldServeWithoutXMemcachedAndTheXMemcachedDriverShouldNameTheDependencyToAdd() throws Exception {
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutXMemcached = classPath.stream().filter(entry -> !new File(entry).getName().startsWith("xmemcached-"))
                .toList();
        assertThat(classPath.size() - withoutXMemcached.size()).as("XMemcached jars left out of the probe's class path").isEqualTo(1);

        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                withoutXMemcached.stream().collect(Collectors.joining(File.pathSeparator)), WithoutXMemcachedProbe.class.getName(),
                memcached.addresses());
        String output = run(command);

        assertThat(output).contains("xmemcached=absent").contains("served=SINGLE").contains("served=MULTI").contains("served=POOLED")
                .contains("refused=The XMemcached driver needs com.googlecode.xmemcached:xmemcached").contains("add that dependency")
                .doesNotContain("failed=");
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("without-xmemcached", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(ended).as("the probe JVM ends within 60 s; its output:%n%s", text).isTrue();
            assertThat(process.exitValue()).as("the probe's exit code; its output:%n%s", text).isZero();
            return text;
        }
        finally {
            Files.deleteIfExists(output);
        }
    }
}
