package io.adaptivecache.spring.cache;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;
import tools.jackson.databind.node.ObjectNode;
import org.springframework.util.ClassUtils;

/**
 * JSON through Jackson, readable by any client: {@code {"@type":"com.example.Product","value":{...}}}.
 * The recorded class is the value's own, so records and beans come back as themselves; the
 * elements of a generic collection come back as Jackson's default types (maps, lists), so
 * cache a typed wrapper rather than a bare {@code List<Product>}.
 *
 * <p><b>Which classes a stored value may name.</b> Whoever can write to the cache server writes
 * the {@code @type} too, so a read builds only a class that a {@link PolymorphicTypeValidator}
 * allows, checked by name before the class is loaded, as Jackson does for polymorphic type ids.
 * A value naming any other class is refused: never loaded or instantiated, read as a miss
 * ({@link #deserialize} returns {@code null}), counted, and logged once per class name at WARN
 * (the class name, never the value). {@link #allowedTypes} makes the usual validator.
 */
public class JsonCacheValueSerializer implements CacheValueSerializer {

    private static final Logger logger = LoggerFactory.getLogger(JsonCacheValueSerializer.class);

    private static final String TYPE = "@type";
    private static final String VALUE = "value";

    // Classes of java.lang, java.math and java.util by name, not whole packages: java.util.Timer, for one, starts a
    // thread when built. The JDK's own immutable and unmodifiable collections are what List.of and the like return.
    private static final List<String> BASIC_TYPES = List.of("java.lang.String", "java.lang.Boolean", "java.lang.Character",
            "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double",
            "java.math.BigDecimal", "java.math.BigInteger", "java.util.ArrayList", "java.util.LinkedList", "java.util.HashMap",
            "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet",
            "java.util.UUID", "java.util.Date", "java.util.Locale", "java.util.Currency", "java.util.Arrays$ArrayList",
            "java.util.ImmutableCollections$List12", "java.util.ImmutableCollections$ListN", "java.util.ImmutableCollections$Set12",
            "java.util.ImmutableCollections$SetN", "java.util.ImmutableCollections$Map1", "java.util.ImmutableCollections$MapN",
            "java.util.Collections$UnmodifiableCollection", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableSet",
            "java.util.Collections$UnmodifiableSortedSet", "java.util.Collections$UnmodifiableMap",
            "java.util.Collections$UnmodifiableSortedMap", "java.util.Collections$EmptyList", "java.util.Collections$EmptySet",
            "java.util.Collections$EmptyMap", "java.util.Collections$SingletonList", "java.util.Collections$SingletonSet",
            "java.util.Collections$SingletonMap");

    private static final Pattern BASIC_TYPE_NAMES = Pattern
            .compile(String.join("|", BASIC_TYPES.stream().map(Pattern::quote).toList()));

    /** The most class names logged once each; later refused names are counted only, so that memory stays bounded. */
    private static final int MAX_LOGGED_TYPES = 64;

    private final ObjectMapper mapper;
    private final ClassLoader classLoader;
    private final PolymorphicTypeValidator allowedTypes;
    private final JavaType objectType;
    private final LongAdder refused = new LongAdder();
    private final Set<String> loggedTypes = ConcurrentHashMap.newKeySet();

    /**
     * Creates a serializer.
     * @param mapper the application's mapper
     * @param classLoader loads the recorded classes
     * @param allowedTypes which recorded classes a read may build, such as {@link #allowedTypes}'s
     */
    public JsonCacheValueSerializer(ObjectMapper mapper, ClassLoader classLoader, PolymorphicTypeValidator allowedTypes) {
        this.mapper = mapper;
        this.classLoader = classLoader;
        this.allowedTypes = allowedTypes;
        this.objectType = mapper.constructType(Object.class);
    }

    /**
     * The JDK's classes that {@link #allowedTypes} allows by name besides {@code java.time}: what
     * the runtime hints of an ahead-of-time build register for reflection.
     * @return the class names
     */
    public static List<String> basicTypes() {
        return BASIC_TYPES;
    }

    /**
     * The classes a cached value may name: those of the given packages and their subpackages,
     * the JDK's basic value and collection classes ({@code String}, the boxed primitives,
     * {@code BigDecimal}, {@code ArrayList}, {@code HashMap}, {@code List.of}'s and the like,
     * {@code UUID}, {@code Date}) and everything in {@code java.time}.
     * @param packages the application's packages, such as {@code com.example}
     * @return the validator
     */
    public static PolymorphicTypeValidator allowedTypes(Collection<String> packages) {
        BasicPolymorphicTypeValidator.Builder builder = BasicPolymorphicTypeValidator.builder().allowIfSubType(BASIC_TYPE_NAMES)
                .allowIfSubType("java.time.");
        // A trailing dot, so that com.example allows com.example.Product and com.example.sub.X, not com.examplex.Y.
        packages.forEach(name -> builder.allowIfSubType(name + "."));
        return builder.build();
    }

    @Override
    public byte[] serialize(Object value) {
        ObjectNode envelope = this.mapper.createObjectNode();
        envelope.put(TYPE, value.getClass().getName());
        envelope.set(VALUE, this.mapper.valueToTree(value));
        return this.mapper.writeValueAsBytes(envelope);
    }

    /**
     * Deserializes a value, unless it names a class that is not allowed.
     * @param bytes bytes from {@link #serialize}
     * @return the value, or {@code null} if it names a class that is not allowed (read as a miss)
     * @throws IllegalArgumentException if the bytes are not a cached JSON value, or name a class that does not exist
     */
    @Override
    public @Nullable Object deserialize(byte[] bytes) {
        JsonNode envelope = this.mapper.readTree(bytes);
        JsonNode type = envelope.get(TYPE);
        if (type == null || !envelope.has(VALUE)) {
            throw new IllegalArgumentException("Not a cached JSON value: no " + TYPE + " and " + VALUE);
        }
        String typeName = type.asString();
        try {
            Class<?> valueType = allowedClass(typeName);
            if (valueType == null) {
                refuse(typeName);
                return null;
            }
            return this.mapper.treeToValue(envelope.get(VALUE), valueType);
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalArgumentException("Cached value of unknown type " + typeName, ex);
        }
    }

    /**
     * Values refused so far because they named a class that is not allowed.
     * @return the count
     */
    public long refusedCount() {
        return this.refused.sum();
    }

    /** The class, loaded (not initialized) only once its name is allowed; {@code null} if it is not. */
    private @Nullable Class<?> allowedClass(String typeName) throws ClassNotFoundException {
        // An array is allowed when its element class is: a Product[] builds Products, nothing else.
        String elementName = typeName.replaceFirst("^\\[+", "");
        if (elementName.length() != typeName.length()) {
            if (elementName.length() == 1) {
                return ClassUtils.forName(typeName, this.classLoader); // an array of primitives
            }
            if (!elementName.startsWith("L") || !elementName.endsWith(";")) {
                return null;
            }
            elementName = elementName.substring(1, elementName.length() - 1);
        }
        // Jackson's way: the name first (DENIED or ALLOWED ends it); a class matcher may still allow the loaded class.
        DatabindContext context = this.mapper._deserializationContext();
        PolymorphicTypeValidator.Validity byName = this.allowedTypes.validateSubClassName(context, this.objectType, elementName);
        if (byName == PolymorphicTypeValidator.Validity.DENIED) {
            return null;
        }
        Class<?> element = ClassUtils.forName(elementName, this.classLoader); // ClassUtils loads without initializing
        if (byName != PolymorphicTypeValidator.Validity.ALLOWED && this.allowedTypes.validateSubType(context, this.objectType,
                this.mapper.constructType(element)) != PolymorphicTypeValidator.Validity.ALLOWED) {
            return null;
        }
        return element.getName().equals(typeName) ? element : ClassUtils.forName(typeName, this.classLoader);
    }

    private void refuse(String typeName) {
        this.refused.increment();
        if (this.loggedTypes.size() < MAX_LOGGED_TYPES && this.loggedTypes.add(typeName)) {
            logger.warn("Refused a cached value naming {}: the class is not allowed (add its package to"
                    + " adaptive-cache.cache.json.allowed-packages if the application caches it); such values are read as misses"
                    + " and counted, not logged again", typeName);
        }
    }
}
