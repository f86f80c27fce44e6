package io.adaptivecache.integration;

import java.net.http.HttpResponse;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * A test of the sample application running on a random port against real servers, asking it
 * over HTTP: the one way in for these tests, as for a user of the endpoint.
 */
abstract class SampleOverHttp extends RealCacheServers {

    @Autowired
    private Environment environment;

    /**
     * One request to the running application.
     * @param method the HTTP method
     * @param path the path, from the root
     * @param json the body, or {@code null} for none
     * @return the response, its body as text
     */
    protected HttpResponse<String> send(String method, String path, String json) throws Exception {
        return new SampleHttp(this.environment).send(method, path, json);
    }
}
