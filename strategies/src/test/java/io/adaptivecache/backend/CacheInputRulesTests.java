package io.adaptivecache.backend;

import java.time.Duration;

import io.adaptivecache.InvalidCacheInputException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CacheInputRulesTests {

    private final CacheInputRules textProtocol = CacheInputRules.builder("memcached").maxKeyBytes(250)
            .maxValueBytes(1024).printableKeysOnly(true).maxTtl(Duration.ofDays(30)).build();

    private final CacheInputRules binarySafe = CacheInputRules.builder("Redis").maxKeyBytes(8).build();

    @Test
    void shouldRejectNullAndEmptyKeys() {
        assertThatThrownBy(() -> textProtocol.checkKey(null)).isInstanceOf(InvalidCacheInputException.class)
                .hasMessage("A cache key must not be null");
        assertThatThrownBy(() -> textProtocol.checkKey("")).hasMessage("A cache key must not be empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a\r\nflush_all", "nul\0", "tab\t", "del\u007f"})
    void textProtocolShouldRejectSpacesAndControlCharactersNamingWhereTheyAre(String key) {
        assertThatThrownBy(() -> textProtocol.checkKey(key)).isInstanceOf(InvalidCacheInputException.class)
                .hasMessageContaining("memcached keys must not contain spaces or control characters")
                .hasMessageContaining("at index");
    }

    @ParameterizedTest
    @ValueSource(strings = {"high-\uD800", "\uDC00-low", "swapped-\uDC00\uD800"})
    void bothKindsShouldRejectUnpairedSurrogatesNamingThem(String key) {
        for (CacheInputRules rules : new CacheInputRules[] {textProtocol, CacheInputRules.builder("Redis").build()}) {
            assertThatThrownBy(() -> rules.checkKey(key)).isInstanceOf(InvalidCacheInputException.class)
                    .hasMessageContaining("unpaired surrogate").hasMessageContaining("\\ud").hasMessageContaining("no UTF-8 form");
        }
        assertThatCode(() -> textProtocol.checkKey("emoji-\uD83D\uDE00")).doesNotThrowAnyException();
    }

    @Test
    void binarySafeBackendsShouldAcceptSpacesAndControlCharacters() {
        assertThatCode(() -> binarySafe.checkKey("a b\r\n")).doesNotThrowAnyException();
    }

    @Test
    void shouldCountKeyLengthInUtf8Bytes() {
        assertThatCode(() -> binarySafe.checkKey("éééé")).doesNotThrowAnyException();
        assertThatThrownBy(() -> binarySafe.checkKey("ééééé")).hasMessageContaining("is 10 bytes in UTF-8; Redis allows at most 8");
        assertThatThrownBy(() -> binarySafe.checkKey("😀😀😀")).hasMessageContaining("is 12 bytes");
        assertThatCode(() -> textProtocol.checkKey("k".repeat(250))).doesNotThrowAnyException();
        assertThatThrownBy(() -> textProtocol.checkKey("k".repeat(251))).hasMessageContaining("251 bytes")
                .hasMessageContaining("...");
    }

    @Test
    void shouldRejectNullAndOversizedValues() {
        assertThatThrownBy(() -> textProtocol.checkValue(null)).hasMessageContaining("must not be null");
        assertThatCode(() -> textProtocol.checkValue(new byte[1024])).doesNotThrowAnyException();
        assertThatThrownBy(() -> textProtocol.checkValue(new byte[1025]))
                .hasMessage("A cache value of 1025 bytes is over memcached's limit of 1024 bytes");
    }

    @Test
    void shouldRejectNegativeNullAndOverlongTtls() {
        assertThatCode(() -> textProtocol.checkTtl(Duration.ZERO)).doesNotThrowAnyException();
        assertThatThrownBy(() -> textProtocol.checkTtl(Duration.ofSeconds(-1))).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> textProtocol.checkTtl(null)).hasMessageContaining("Duration.ZERO");
        assertThatThrownBy(() -> textProtocol.checkTtl(Duration.ofDays(31))).hasMessageContaining("over memcached's limit");
    }

    @Test
    void shouldRejectNegativeDeltas() {
        assertThatThrownBy(() -> textProtocol.checkDelta(-1)).hasMessageContaining("use decr");
    }
}
