package io.adaptivecache.benchmarks.http.app;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** {@code GET /items/{id}}: the item as JSON, 404 outside the key space. */
@RestController
class ItemController {

    private final ItemCatalog catalog;

    ItemController(ItemCatalog catalog) {
        this.catalog = catalog;
    }

    @GetMapping("/items/{id}")
    Item item(@PathVariable long id) {
        if (id < 0 || id >= Item.KEYS) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no item " + id);
        }
        return this.catalog.item(id);
    }
}
