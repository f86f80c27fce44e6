package io.adaptivecache.redis;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis is optional: a Lettuce template is built, serves every command through every strategy
 * (POOLED on Lettuce) and switches between them in a JVM whose class path lacks the Jedis jar
 * (this module's test class path less that jar).
 */
class RedisWithoutJedisIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aLettuceTemplateShouldServeEveryStrategyWithoutJedis() throws Exception {
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutJedis = classPath.stream().filter(entry -> !new File(entry).getName().startsWith("jedis-")).toList();
        assertThat(classPath.size() - withoutJedis.size()).as("Jedis jars left out of the probe's class path").isEqualTo(1);

        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                withoutJedis.stream().collect(Collectors.joining(File.pathSeparator)), WithoutJedisProbe.class.getName(), redis.uri());
        String output = run(command);

        assertThat(output).contains("jedis=absent").contains("served=SINGLE").contains("served=MULTI").contains("served=POOLED")
                .doesNotContain("failed=");
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("without-jedis", ".out");
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
