package io.adaptivecache.actuate.endpoint;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint.ControlOutcome;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint.ErrorDescriptor;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The HTTP form of {@link AdaptiveCacheEndpoint}'s write operation, so that a refused request
 * says why in its body whatever {@code server.error.include-message} is (an
 * {@code InvalidEndpointRequestException} would reach the client as a bare 400). A POST to
 * {@code /actuator/adaptivecache/{name}} answers:
 * <ul>
 * <li>200 with the template after the change;</li>
 * <li>400 with {@code {"error": "..."}} for an unknown or missing action or strategy, or
 * connections that are not a whole number from 1 to the template's connection limit
 * ({@code adaptive-cache.<name>.adaptive.connection-limit}); nothing was opened;</li>
 * <li>404 with {@code {"error": "..."}} for an unknown template;</li>
 * <li>503 with {@code {"error": "..."}} when the strategy could not be opened (the server refused
 * a connection, say): nothing changed, the incumbent still serves and the pin is as it was; and
 * for a pin or trial on a template that has not connected to its server yet
 * ({@code on-failure: degrade}), with the reason and the next attempt: nothing is opened.</li>
 * </ul>
 * The read operations are the endpoint's own.
 */
@EndpointWebExtension(endpoint = AdaptiveCacheEndpoint.class)
public class AdaptiveCacheEndpointWebExtension {

    private final AdaptiveCacheEndpoint endpoint;

    /**
     * Creates the extension.
     * @param endpoint the endpoint it extends
     */
    public AdaptiveCacheEndpointWebExtension(AdaptiveCacheEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Controls a template's switcher.
     * @param name the template's name
     * @param action {@code pin}, {@code unpin} or {@code trial}
     * @param strategy for pin and trial: {@code single}, {@code multi} or {@code pooled}
     * @param connections for multi: N (default: available processors); for pooled: max-total
     *        (default 8); a whole number from 1 to the template's connection limit; ignored for single
     * @return the template after the change (200), or {@code {"error": "..."}} with 400, 404 or 503
     */
    @WriteOperation
    public WebEndpointResponse<Object> control(@Selector String name, @Nullable String action, @Nullable String strategy,
            @Nullable String connections) {
        ControlOutcome outcome = this.endpoint.execute(name, action, strategy, connections);
        if (outcome.status() == ControlOutcome.OK) {
            return new WebEndpointResponse<>(outcome.template(), ControlOutcome.OK);
        }
        return new WebEndpointResponse<>(new ErrorDescriptor(outcome.error()), outcome.status());
    }
}
