package io.adaptivecache.benchmarks.http;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.benchmarks.http.app.Item;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class WrkTests {

    private final Wrk wrk = new Wrk(Path.of("/usr/bin/wrk"), Path.of("/run/items.lua"), Duration.ofSeconds(5), 2);

    @Test
    void runsOneThreadPerCoreWithTheScriptTheKeySpaceAndTheSeed() {
        List<String> command = this.wrk.command(8080, 64, Duration.ofSeconds(5), 7);

        assertThat(command).containsExactly("/usr/bin/wrk", "-t2", "-c64", "-d5s", "--timeout", "5s", "--latency", "-s",
                "/run/items.lua", "http://127.0.0.1:8080", "--", Integer.toString(Item.KEYS), "7");
    }

    @Test
    void neverRunsMoreThreadsThanConnections() {
        Wrk manyCores = new Wrk(Path.of("wrk"), Path.of("items.lua"), Duration.ofSeconds(5), 16);

        assertThat(manyCores.command(8080, 4, Duration.ofSeconds(1), 0)).contains("-t4", "-c4");
        assertThat(manyCores.command(8080, 256, Duration.ofSeconds(1), 0)).contains("-t16", "-c256");
    }

    @Test
    void durationsAreWholeSecondsRoundedUpAndAtLeastOne() {
        assertThat(Wrk.wholeSeconds(Duration.ofSeconds(5))).isEqualTo(5);
        assertThat(Wrk.wholeSeconds(Duration.ofMillis(1_001))).isEqualTo(2);
        assertThat(Wrk.wholeSeconds(Duration.ofMillis(200))).isEqualTo(1);
        assertThat(Wrk.wholeSeconds(Duration.ZERO)).isEqualTo(1);
    }

    @Test
    void findsAnExecutableWrkOnThePath(@TempDir Path directory) throws IOException {
        Path empty = Files.createDirectory(directory.resolve("empty"));
        Path notExecutable = Files.createDirectory(directory.resolve("plain"));
        Files.writeString(notExecutable.resolve("wrk"), "");
        Path bin = Files.createDirectory(directory.resolve("bin"));
        Path wrk = Files.writeString(bin.resolve("wrk"), "#!/bin/sh\n");
        assertThat(wrk.toFile().setExecutable(true)).isTrue();

        assertThat(Wrk.find(String.join(File.pathSeparator, empty.toString(), notExecutable.toString(), bin.toString())))
                .contains(wrk);
        assertThat(Wrk.find(String.join(File.pathSeparator, empty.toString(), notExecutable.toString()))).isEmpty();
        assertThat(Wrk.find(null)).isEmpty();
    }

    @Test
    void aMissingWrkSaysWhatToInstall() {
        assertThat(Wrk.MISSING).contains("wrk", "not on the PATH", "apt-get install wrk");
    }
}
