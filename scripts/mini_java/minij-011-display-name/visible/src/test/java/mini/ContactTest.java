package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ContactTest {
    @Test
    public void nickname() {
        assertEquals("Addie", new Contact("Ada Lovelace", "Addie").displayName());
    }

    @Test
    public void noNickname() {
        assertEquals("Ada Lovelace", new Contact("Ada Lovelace", null).displayName());
    }
}
