package mini;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class OrderTest {
    @Test
    public void addingGivesANewOrder() {
        Order empty = Order.empty();
        Order one = empty.withItem("tea");
        assertEquals(Arrays.asList("tea"), one.items());
        assertEquals(0, empty.size());
    }
}
