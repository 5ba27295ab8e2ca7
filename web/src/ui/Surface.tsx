import { chakra } from '@chakra-ui/react';
import { sectionRecipe, surfaceRecipe } from '../theme';

/** A card surface (panel) styled by the theme's `surface` recipe. */
export const Surface = chakra('div', surfaceRecipe);

/** A full-width page section styled by the theme's `section` recipe. */
export const Section = chakra('section', sectionRecipe);
