package io.adaptivecache.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/** The observations of cache calls and their key names. */
public enum CacheCallObservationDocumentation implements ObservationDocumentation {

    /** One call of a cache template, from the call to its completion (connection wait, guard and round trip included). */
    CACHE_CALL {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultCacheCallObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeys.values();
        }
    };

    /** The low-cardinality key names of a cache call; there are no high-cardinality ones. */
    public enum LowCardinalityKeys implements KeyName {

        /** The template's backend: redis or memcached. */
        BACKEND {
            @Override
            public String asString() {
                return "backend";
            }
        },

        /** The template's name. */
        TEMPLATE {
            @Override
            public String asString() {
                return "template";
            }
        },

        /** The command, such as get, set, delete or get-all. */
        COMMAND {
            @Override
            public String asString() {
                return "command";
            }
        },

        /** The type of the strategy live when the call was made: SINGLE, MULTI or POOLED. */
        STRATEGY {
            @Override
            public String asString() {
                return "strategy";
            }
        },

        /** How the call ended: success, miss, error, degraded or rejected. */
        OUTCOME {
            @Override
            public String asString() {
                return "outcome";
            }
        }
    }
}
