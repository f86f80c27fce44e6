/** Auto-configuration of the {@code adaptivecache} Actuator endpoint. */
package io.adaptivecache.autoconfigure.endpoint;
