package io.adaptivecache.autoconfigure;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.boot.json.JsonParserFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/reference/properties.md is this module's generated configuration metadata rendered as
 * tables: the committed file must be exactly what {@link #render} makes of the metadata, so a
 * property added, renamed, retyped or redescribed in the code fails here until the reference is
 * regenerated. Regenerate by running this test with {@code -Dproperties.reference.write=true}:
 * it then writes the file instead of comparing (and passes).
 */
class PropertiesReferenceTests {

    static final String WRITE_PROPERTY = "properties.reference.write";

    static final String REGENERATE = "./mvnw -pl autoconfigure -am test -Dtest=PropertiesReferenceTests"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dproperties.reference.write=true";

    /** Section title per name prefix, in the order they appear; the last one takes every other name. */
    private static final Map<String, String> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("adaptive-cache.redis.", "Redis (`adaptive-cache.redis.*`)");
        GROUPS.put("adaptive-cache.memcached.", "memcached (`adaptive-cache.memcached.*`)");
        GROUPS.put("adaptive-cache.cache.", "Spring Cache (`adaptive-cache.cache.*`)");
        GROUPS.put("", "Other properties");
    }

    @Test
    void committedReferenceIsTheMetadataRendered() throws IOException, URISyntaxException {
        Path classes = classesDirectory();
        Map<String, Object> metadata = JsonParserFactory.getJsonParser()
                .parseMap(Files.readString(classes.resolve("META-INF/spring-configuration-metadata.json")));
        String rendered = render(metadata);
        // classes is <root>/autoconfigure/target/classes
        Path reference = classes.getParent().getParent().getParent().resolve("docs/reference/properties.md");
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.createDirectories(reference.getParent());
            Files.writeString(reference, rendered, StandardCharsets.UTF_8);
            return;
        }
        assertThat(reference).as("docs/reference/properties.md is missing; generate it with: " + REGENERATE).exists();
        assertThat(Files.readString(reference, StandardCharsets.UTF_8))
                .as("docs/reference/properties.md is not the configuration metadata rendered (a property was added,"
                        + " renamed or redescribed); regenerate it with: " + REGENERATE)
                .isEqualTo(rendered);
    }

    @Test
    void renderingShowsEveryColumnOfAProperty() {
        // Catches a renderer that drops the type, the default, the allowed values or a group.
        Map<String, Object> metadata = Map.of(
                "properties", List.of(
                        Map.of("name", "adaptive-cache.redis.timeout", "type", "java.time.Duration",
                                "description", "Command timeout | with a pipe, spring.data.redis.* and <template>.", "defaultValue", "1s"),
                        Map.of("name", "adaptive-cache.memcached.servers", "type", "java.util.List<java.lang.String>",
                                "defaultValue", List.of("a:1", "b:2")),
                        Map.of("name", "management.endpoint.adaptivecache.access",
                                "type", "org.springframework.boot.actuate.endpoint.Access")),
                "hints", List.of(Map.of("name", "adaptive-cache.redis.timeout",
                        "values", List.of(Map.of("value", "1s"), Map.of("value", "2s")))));
        String rendered = render(metadata);
        assertThat(rendered)
                .contains("| `adaptive-cache.redis.timeout` | `Duration` | `1s` | Command timeout \\| with a pipe,"
                        + " spring.data.redis.\\* and &lt;template&gt;. Values: `1s`, `2s`. |")
                .contains("| `adaptive-cache.memcached.servers` | `List<String>` | `a:1,b:2` |  |")
                .contains("| `management.endpoint.adaptivecache.access` | `Access` |  |  |");
        assertThat(rendered.indexOf("## Redis")).isLessThan(rendered.indexOf("## memcached"));
        assertThat(rendered.indexOf("## memcached")).isLessThan(rendered.indexOf("## Other properties"));
        assertThat(rendered).doesNotContain("## Spring Cache");
    }

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> metadata) {
        List<Map<String, Object>> properties = new ArrayList<>((List<Map<String, Object>>) metadata.get("properties"));
        properties.sort(Comparator.comparing(property -> (String) property.get("name")));
        Map<String, List<String>> hints = new LinkedHashMap<>();
        for (Map<String, Object> hint : (List<Map<String, Object>>) metadata.getOrDefault("hints", List.of())) {
            List<String> values = ((List<Map<String, Object>>) hint.getOrDefault("values", List.of())).stream()
                    .map(value -> String.valueOf(value.get("value"))).toList();
            hints.put((String) hint.get("name"), values);
        }
        Map<String, List<Map<String, Object>>> grouped = new LinkedHashMap<>();
        GROUPS.keySet().forEach(prefix -> grouped.put(prefix, new ArrayList<>()));
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            String prefix = GROUPS.keySet().stream().filter(name::startsWith).findFirst().orElseThrow();
            grouped.get(prefix).add(property);
        }
        StringBuilder out = new StringBuilder();
        out.append("# Configuration properties\n\n");
        out.append("<!-- Generated from autoconfigure's configuration metadata by PropertiesReferenceTests; do not edit."
                + " Regenerate: ").append(REGENERATE).append(" -->\n\n");
        out.append("Every property of the starter, generated from the configuration metadata that the build derives from\n"
                + "the properties' javadoc, so this page cannot drift from the code: the build fails while it differs.\n"
                + "Durations take Boot's forms (`500ms`, `1s`, `5m`), sizes `16KB`. Regenerate after changing a property:\n\n"
                + "```bash\n" + REGENERATE + "\n```\n");
        grouped.forEach((prefix, group) -> {
            if (group.isEmpty()) {
                return;
            }
            out.append("\n## ").append(GROUPS.get(prefix)).append("\n\n");
            out.append("| Property | Type | Default | Description |\n");
            out.append("|---|---|---|---|\n");
            for (Map<String, Object> property : group) {
                String name = (String) property.get("name");
                String description = text((String) property.getOrDefault("description", ""));
                List<String> values = hints.get(name);
                if (values == null) {
                    values = hints.get(name + ".values");
                }
                if (values != null && !values.isEmpty()) {
                    String allowed = values.stream().map(value -> "`" + value + "`").collect(Collectors.joining(", "));
                    description = (description.isEmpty() ? "" : description + " ") + "Values: " + allowed + ".";
                }
                out.append("| `").append(name).append("` | `").append(type((String) property.get("type")))
                        .append("` | ").append(defaultValue(property.get("defaultValue"))).append(" | ")
                        .append(description).append(" |\n");
            }
        });
        return out.toString();
    }

    /** {@code java.util.Map<java.lang.String,a.b.Outer$Inner>} as {@code Map<String,Inner>}. */
    private static String type(String type) {
        if (type == null) {
            return "";
        }
        return type.replaceAll("[\\w.]*[.$](\\w+)", "$1");
    }

    private static String defaultValue(Object value) {
        if (value == null) {
            return "";
        }
        String text = (value instanceof List<?> list)
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(value);
        return "`" + text.replace("|", "\\|") + "`";
    }

    /** A description as one table cell: one line, no column separator, no emphasis, no HTML tags. */
    private static String text(String description) {
        return description.replaceAll("\\s+", " ").trim()
                .replace("|", "\\|").replace("*", "\\*").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static Path classesDirectory() throws URISyntaxException {
        // This module's own build output: other jars on the test classpath have metadata of the same name.
        return Path.of(AdaptiveCacheRedisProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
