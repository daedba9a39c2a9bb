package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Arrays;
import org.junit.Test;

public class ContactHiddenTest {
    @Test
    public void blankNickname() {
        assertEquals("Grace Hopper", new Contact("Grace Hopper", "   ").displayName());
    }

    @Test
    public void nicknameIsTrimmed() {
        assertEquals("Amazing Grace", new Contact("Grace Hopper", "  Amazing Grace ").displayName());
    }

    @Test
    public void fullNameIsTrimmed() {
        assertEquals("Alan Turing", new Contact(" Alan Turing ", null).displayName());
    }

    @Test
    public void sortedWithAndWithoutNicknames() {
        assertEquals(
                Arrays.asList("Addie", "alan", "Grace Hopper"),
                Contact.sortedNames(Arrays.asList(
                        new Contact("Grace Hopper", null),
                        new Contact("Alan Turing", "alan"),
                        new Contact("Ada Lovelace", "Addie"))));
    }

    @Test
    public void fullNameIsRequired() {
        assertThrows(IllegalArgumentException.class, () -> new Contact(" ", "x"));
        assertThrows(IllegalArgumentException.class, () -> new Contact(null, "x"));
    }
}
