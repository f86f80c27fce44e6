package io.adaptivecache.spring.cache;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import org.springframework.util.ClassUtils;

/**
 * JSON through Jackson, readable by any client: {@code {"@type":"com.example.Product","value":{...}}}.
 * The recorded class is the value's own, so records and beans come back as themselves; the
 * elements of a generic collection come back as Jackson's default types (maps, lists), so
 * cache a typed wrapper rather than a bare {@code List<Product>}.
 */
public class JsonCacheValueSerializer implements CacheValueSerializer {

    private static final String TYPE = "@type";
    private static final String VALUE = "value";

    private final ObjectMapper mapper;
    private final ClassLoader classLoader;

    /**
     * Creates a serializer.
     * @param mapper the application's mapper
     * @param classLoader loads the recorded classes
     */
    public JsonCacheValueSerializer(ObjectMapper mapper, ClassLoader classLoader) {
        this.mapper = mapper;
        this.classLoader = classLoader;
    }

    @Override
    public byte[] serialize(Object value) {
        ObjectNode envelope = this.mapper.createObjectNode();
        envelope.put(TYPE, value.getClass().getName());
        envelope.set(VALUE, this.mapper.valueToTree(value));
        return this.mapper.writeValueAsBytes(envelope);
    }

    @Override
    public Object deserialize(byte[] bytes) {
        JsonNode envelope = this.mapper.readTree(bytes);
        JsonNode type = envelope.get(TYPE);
        if (type == null || !envelope.has(VALUE)) {
            throw new IllegalArgumentException("Not a cached JSON value: no " + TYPE + " and " + VALUE);
        }
        try {
            return this.mapper.treeToValue(envelope.get(VALUE), ClassUtils.forName(type.asString(), this.classLoader));
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalArgumentException("Cached value of unknown type " + type.asString(), ex);
        }
    }
}
